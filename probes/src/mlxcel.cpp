#include "perfgate/probes/mlxcel.hpp"

#include <cmath>
#include <regex>

#include "text.hpp"

namespace perfgate::probes {

MlxcelBackendReport parse_mlxcel_backend(std::string_view raw) {
    static const std::regex backend_re(R"(^\[mlxcel\] custom kernel backend: ([a-z]+))");
    static const std::regex arch_re(R"(^HIP architecture (gfx[0-9a-f]+)(?:; compiled for \[([^\]]*)\])?)");
    static const std::regex gpu_re(R"(^GPU: (.*) \(([A-Za-z]+)\)(?:, ([0-9.]+) GiB device memory)?\.$)");
    static const std::regex device_re(R"(^Runtime device: (.+)$)");
    MlxcelBackendReport r;
    for (const auto& line : split_lines(strip_ansi(raw))) {
        std::smatch m;
        if (!r.backend && std::regex_search(line, m, backend_re)) r.backend = m[1].str();
        else if (!r.hip_arch && std::regex_search(line, m, arch_re)) {
            r.hip_arch = m[1].str();
            if (m[2].matched) {
                static const std::regex item_re(R"(gfx[0-9a-f]+)");
                const auto list = m[2].str();
                for (auto it = std::sregex_iterator(list.begin(), list.end(), item_re); it != std::sregex_iterator(); ++it)
                    r.compiled_for.push_back(it->str());
            }
        } else if (!r.device_name && std::regex_match(line, m, gpu_re)) {
            r.device_name = m[1].str();
            r.device_vendor = m[2].str();
            if (m[3].matched) {
                // mlxcel prints bytes / 2^30 with two decimals; "." or a size past 2^64 bytes is not a size.
                const auto gib = parse_decimal(m[3].str());
                const double bytes = gib ? std::round(*gib * 1073741824.0) : 0.0;
                if (bytes >= 1.0 && bytes < 18446744073709551616.0) r.device_memory_bytes = static_cast<std::uint64_t>(bytes);
            }
        } else if (!r.runtime_device && std::regex_match(line, m, device_re)) {
            r.runtime_device = trim(m[1].str());
        }
    }
    return r;
}

}  // namespace perfgate::probes
