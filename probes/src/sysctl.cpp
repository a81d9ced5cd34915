#include "sysctl.hpp"

#include <regex>

#include "text.hpp"

namespace perfgate::probes {

std::map<std::string, std::string> parse_sysctl(std::string_view raw) {
    // Keys are dotted lowercase names; the separator is ": " (or " = " on old macOS).
    static const std::regex line_re(R"(^([a-z][a-z0-9_]*(?:\.[A-Za-z0-9_]+)+)(?::\s?| = )(.*)$)");
    std::map<std::string, std::string> values;
    for (const auto& line : split_lines(strip_ansi(raw))) {
        std::smatch m;
        if (std::regex_match(line, m, line_re)) values[m[1].str()] = trim(m[2].str());
    }
    return values;
}

}  // namespace perfgate::probes
