#include <cstdlib>

#include "perfgate/probes/contention.hpp"
#include "text.hpp"
#include "perfgate/probes/tool_runner.hpp"

namespace perfgate::probes {

std::vector<OtherProcess> parse_compute_apps(std::string_view csv) {
    std::vector<OtherProcess> out;
    for (const auto& raw : split_lines(strip_ansi(csv))) {
        const std::string line = trim(raw);
        // "No running processes found" (older drivers print it even with noheader) has no pid.
        const auto comma = line.find(',');
        if (comma == std::string::npos) continue;
        const auto pid = parse_leading_uint(trim(line.substr(0, comma)));
        if (!pid || trim(line.substr(0, comma)).size() != std::to_string(*pid).size()) continue;
        // The name may itself hold commas; used_memory is the last cell.
        const auto last = line.rfind(',');
        OtherProcess p;
        p.pid = static_cast<std::int64_t>(*pid);
        p.name = trim(last > comma ? line.substr(comma + 1, last - comma - 1) : line.substr(comma + 1));
        // MiB with nounits; "[N/A]" where the driver cannot attribute memory (some MIG and vGPU setups).
        if (last > comma) {
            const std::string mib = trim(line.substr(last + 1));
            const auto value = parse_leading_uint(mib);
            if (value && mib.size() == std::to_string(*value).size()) p.device_bytes = checked_multiply(*value, 1024 * 1024);
        }
        out.push_back(std::move(p));
    }
    return out;
}

Expected<std::vector<OtherProcess>> query_nvidia_compute_apps(const std::vector<std::string>& search_dirs,
                                                              std::chrono::milliseconds timeout) {
    ToolCall call;
    call.program = "nvidia-smi";
    call.args = {"--query-compute-apps=pid,process_name,used_memory", "--format=csv,noheader,nounits"};
    call.timeout = timeout;
    auto out = run_tool(call, search_dirs);
    if (!out) return out.error();
    if (out->exit_code != 0)
        return make_error("nvidia-smi --query-compute-apps exited " + std::to_string(out->exit_code));
    return parse_compute_apps(out->text);
}

}  // namespace perfgate::probes
