#include "perfgate/probes/metal_init.hpp"

#include <regex>

#include "text.hpp"

namespace perfgate::probes {

MetalInitReport parse_metal_init(std::string_view raw) {
    // Match on key names after any "<function>: " prefix; the spacing before '=' varies by year.
    static const std::regex found_re(R"(: (?:found device|GPU name):\s+(.+)$)");
    static const std::regex family_re(R"(: GPU family:\s+(MTLGPUFamily\w+))");
    static const std::regex unified_re(R"(: hasUnifiedMemory\s*=\s*(true|false))");
    static const std::regex working_set_re(R"(: recommendedMaxWorkingSetSize\s*=\s*([0-9]+(?:[.,][0-9]+)?) MB)");
    MetalInitReport r;
    for (const auto& line : split_lines(strip_ansi(raw))) {
        std::smatch m;
        if (!r.device_name && std::regex_search(line, m, found_re)) r.device_name = trim(m[1].str());
        else if (!r.gpu_family && std::regex_search(line, m, family_re)) r.gpu_family = m[1].str();
        else if (!r.unified_memory && std::regex_search(line, m, unified_re)) r.unified_memory = m[1].str() == "true";
        else if (!r.recommended_max_working_set_mb && std::regex_search(line, m, working_set_re))
            r.recommended_max_working_set_mb = parse_decimal(m[1].str());
    }
    return r;
}

}  // namespace perfgate::probes
