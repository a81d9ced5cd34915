// Host files and tools, each input given to every parser: macOS sysctl, /proc/meminfo,
// /proc/cpuinfo, /etc/os-release and single-number sysfs files.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "fuzz_check.hpp"
#include "linux_files.hpp"
#include "sysctl.hpp"
#include "text.hpp"

using perfgate::fuzz::check;
using perfgate::fuzz::one_clean_line;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view raw(reinterpret_cast<const char*>(data), size);
    const std::string text(raw);
    {

            for (const auto& [key, value] : perfgate::probes::parse_sysctl(raw)) {
                check(key.find('.') != std::string::npos && one_clean_line(key), "sysctl keys are dotted names", key);
                check(one_clean_line(value) && value == perfgate::probes::trim(value), "sysctl values are trimmed lines", value);
            }

            if (auto bytes = perfgate::probes::parse_meminfo_total_bytes(raw))
                check(*bytes % 1024 == 0 && perfgate::fuzz::printed_number(text, *bytes / 1024),
                      "MemTotal is the printed kB count times 1024");

            if (auto model = perfgate::probes::parse_cpuinfo_model(raw))
                check(!model->empty() && perfgate::fuzz::no_line_break(*model) && *model == perfgate::probes::trim(*model), "cpu model name");

            if (auto name = perfgate::probes::parse_os_release_name(raw))
                check(!name->empty() && perfgate::fuzz::no_line_break(*name), "PRETTY_NAME is a non-empty line");

            if (auto n = perfgate::probes::parse_sysfs_number(raw)) {
                char hex[32];
                std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(*n));
                std::string lower = perfgate::probes::to_lower(text);
                check(perfgate::fuzz::printed_number(text, *n) || lower.find(hex) != std::string::npos,
                      "sysfs number as printed (decimal or hex)");
            }
    }
    return 0;
}
