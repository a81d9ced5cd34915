#pragma once
// Parser for macOS `sysctl` output: "key: value" lines (old macOS: "key = value").
#include <map>
#include <string>
#include <string_view>

namespace perfgate::probes {

std::map<std::string, std::string> parse_sysctl(std::string_view text);

}  // namespace perfgate::probes
