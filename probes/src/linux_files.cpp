#include "linux_files.hpp"

#include <charconv>
#include <system_error>

#include "text.hpp"

namespace perfgate::probes {

std::optional<std::uint64_t> parse_meminfo_total_bytes(std::string_view meminfo) {
    for (const auto& line : split_lines(meminfo)) {
        if (line.rfind("MemTotal:", 0) != 0) continue;
        if (auto kib = parse_leading_uint(trim(line.substr(9)))) return checked_multiply(*kib, 1024);  // the "kB" is KiB
    }
    return std::nullopt;
}

std::optional<std::string> parse_cpuinfo_model(std::string_view cpuinfo) {
    for (const auto& line : split_lines(cpuinfo)) {
        const auto kv = split_key_value(line);
        if (kv && kv->first == "model name" && !kv->second.empty()) return kv->second;
    }
    return std::nullopt;
}

std::optional<std::string> parse_os_release_name(std::string_view os_release) {
    for (const auto& line : split_lines(os_release)) {
        if (line.rfind("PRETTY_NAME=", 0) != 0) continue;
        auto value = trim(line.substr(12));
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        if (!value.empty()) return value;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> parse_sysfs_number(std::string_view text) {
    const auto t = trim(text);
    if (t.rfind("0x", 0) == 0) {
        // from_chars, not stoull: stoull takes a sign ("0x-1586" read as a huge number).
        const std::string_view digits = std::string_view(t).substr(2);  // a view of t, not of a temporary
        std::uint64_t value = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
        if (ec != std::errc() || end == digits.data()) return std::nullopt;
        return value;
    }
    return parse_leading_uint(t);
}

}  // namespace perfgate::probes
