#pragma once
// Parsers for ROCm/HIP version text: `hipconfig --version` / `--full`, `.info/version`.
#include <optional>
#include <string>
#include <string_view>

namespace perfgate::probes {

// "3.10.20465-f9876b8d" (bare, maybe without newline) or "HIP version  : 3.10.20465-f9876b8d"
// (--full) or "HIP version: 6.5.25281-18e361994" (hipcc); cut at the first '-'.
std::optional<std::string> parse_hipconfig_version(std::string_view text);
// First line of /opt/rocm/.info/version, e.g. "7.2.0-43" -> "7.2.0".
std::optional<std::string> parse_rocm_version_file(std::string_view text);

}  // namespace perfgate::probes
