#pragma once
// Parsers for the Linux files the probe reads under the sysroot.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace perfgate::probes {

std::optional<std::uint64_t> parse_meminfo_total_bytes(std::string_view meminfo);  // MemTotal kB
std::optional<std::string> parse_cpuinfo_model(std::string_view cpuinfo);          // "model name"
std::optional<std::string> parse_os_release_name(std::string_view os_release);     // PRETTY_NAME
// A sysfs file holding one integer ("536870912\n") or a hex id ("0x1586\n").
std::optional<std::uint64_t> parse_sysfs_number(std::string_view text);

}  // namespace perfgate::probes
