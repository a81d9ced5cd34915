#include "rocm_versions.hpp"

#include <regex>

#include "text.hpp"

namespace perfgate::probes {

std::optional<std::string> parse_hipconfig_version(std::string_view raw) {
    // Bare "3.10.20465-f9876b8d", or "HIP version  : ..." / "HIP version: ..." on a line.
    static const std::regex labelled_re(R"(HIP version\s*:\s*([0-9]+\.[0-9]+(?:\.[0-9]+)*))");
    static const std::regex bare_re(R"(^\s*([0-9]+\.[0-9]+(?:\.[0-9]+)*)(?:-\S*)?\s*$)");
    for (const auto& line : split_lines(strip_ansi(raw))) {
        std::smatch m;
        if (std::regex_search(line, m, labelled_re) || std::regex_match(line, m, bare_re)) return m[1].str();
    }
    return std::nullopt;
}

std::optional<std::string> parse_rocm_version_file(std::string_view raw) {
    static const std::regex version_re(R"(^\s*([0-9]+\.[0-9]+(?:\.[0-9]+)?))");
    const auto lines = split_lines(raw);
    if (lines.empty()) return std::nullopt;
    std::smatch m;
    if (std::regex_search(lines.front(), m, version_re)) return m[1].str();
    return std::nullopt;
}

}  // namespace perfgate::probes
