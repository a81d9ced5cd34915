#include "perfgate/probes/rocminfo.hpp"

#include <regex>

#include "text.hpp"

namespace perfgate::probes {

namespace {
// "5510(0x1586)" -> 5510; "67108864(0x4000000) KB" -> 67108864.
std::optional<std::uint64_t> leading_number(const std::string& value) { return parse_leading_uint(value); }

int indent_of(const std::string& line) {
    int n = 0;
    while (n < static_cast<int>(line.size()) && line[static_cast<std::size_t>(n)] == ' ') ++n;
    return n;
}
}  // namespace

std::vector<RocmAgent> RocminfoReport::gpus() const {
    std::vector<RocmAgent> out;
    for (const auto& a : agents)
        if (a.device_type == "GPU") out.push_back(a);
    return out;
}

RocminfoReport parse_rocminfo(std::string_view raw) {
    static const std::regex module_re(R"(ROCk module(?: version (\S+))? is loaded)");
    static const std::regex agent_re(R"(^Agent \d+\s*$)");
    RocminfoReport report;
    RocmAgent* agent = nullptr;
    bool in_pool = false;
    bool pool_is_global = false;
    for (auto line : split_lines(strip_ansi(raw))) {
        while (!line.empty() && line.back() == ' ') line.pop_back();  // banner padding
        std::smatch m;
        if (std::regex_search(line, m, module_re)) {
            if (m[1].matched) report.kernel_module_version = m[1].str();
            continue;
        }
        if (line.find("*** Done ***") != std::string::npos) { report.complete = true; continue; }
        if (std::regex_match(line, agent_re)) {
            report.agents.emplace_back();
            agent = &report.agents.back();
            in_pool = false;
            continue;
        }
        const auto kv = split_key_value(line);
        if (!kv) continue;
        const auto& [key, value] = *kv;
        const int indent = indent_of(line);
        if (!agent) {
            if (indent == 0 && key == "Runtime Version" && !value.empty()) report.hsa_runtime_version = value;
            continue;
        }
        if (indent == 2) {  // agent-level keys; deeper keys belong to caches, pools and ISAs
            in_pool = (key == "Pool Info");
            if (key == "Name") agent->name = value;
            else if (key == "Marketing Name") agent->marketing_name = value;
            else if (key == "Vendor Name") agent->vendor = value;
            else if (key == "Device Type") agent->device_type = value;
            else if (key == "Memory Properties") agent->apu = value.find("APU") != std::string::npos;
            else if (key == "Chip ID") {
                if (auto n = leading_number(value); n && *n > 0 && *n <= UINT32_MAX) agent->chip_id = static_cast<std::uint32_t>(*n);
            } else if (key == "Compute Unit") {
                if (auto n = leading_number(value); n && *n <= UINT32_MAX) agent->compute_units = static_cast<std::uint32_t>(*n);
            } else if (key == "ISA Info") {
                in_pool = false;
            }
            continue;
        }
        if (!in_pool) continue;
        if (key == "Segment") {
            pool_is_global = value.rfind("GLOBAL", 0) == 0;
        } else if (key == "Size" && pool_is_global && value.find("KB") != std::string::npos) {
            if (auto kib = leading_number(value); auto bytes = kib ? checked_multiply(*kib, 1024) : std::nullopt) {
                if (!agent->largest_global_pool_bytes || *bytes > *agent->largest_global_pool_bytes)
                    agent->largest_global_pool_bytes = *bytes;
            }
        }
    }
    return report;
}

}  // namespace perfgate::probes
