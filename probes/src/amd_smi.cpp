#include "perfgate/probes/amd_smi.hpp"

#include <regex>

#include "text.hpp"

namespace perfgate::probes {

AmdSmiReport parse_amd_smi(std::string_view raw) {
    static const std::regex rocm_re(R"(ROCm version:\s*([0-9][0-9.]*))");
    static const std::regex name_re(R"(^\|\s*[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-9a-fA-F]\s+(.+?)\s*\|)");
    static const std::regex usage_re(R"((\d+)/(\d+) MB\s*\|\s*$)");
    AmdSmiReport report;
    for (const auto& line : split_lines(strip_ansi(raw))) {
        std::smatch m;
        if (!report.rocm_version && std::regex_search(line, m, rocm_re)) report.rocm_version = m[1].str();
        else if (!report.device_name && std::regex_search(line, m, name_re)) report.device_name = m[1].str();
        else if (!report.vram_total_bytes && std::regex_search(line, m, usage_re))
            if (auto mib = parse_leading_uint(m[2].str()))
                report.vram_total_bytes = checked_multiply(*mib, 1024 * 1024);  // amd-smi "MB" are MiB
    }
    return report;
}

}  // namespace perfgate::probes
