// ROCm tool outputs, each input given to every parser: rocminfo, rocm-smi (text and --json),
// amd-smi, hipconfig --version and /opt/rocm/.info/version.
// Beyond "no crash": every number reported must be the number printed (no wrap, no truncation).
#include <cstddef>
#include <cstdint>
#include <regex>
#include <set>
#include <string>

#include "fuzz_check.hpp"
#include "perfgate/probes/amd_smi.hpp"
#include "perfgate/probes/rocm_smi.hpp"
#include "rocm_versions.hpp"
#include "perfgate/probes/rocminfo.hpp"
#include "text.hpp"

using perfgate::fuzz::check;
using perfgate::fuzz::one_clean_line;

namespace {
constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;

bool printed(const std::string& text, std::uint64_t value) { return perfgate::fuzz::printed_number(text, value); }

void check_version(const std::optional<std::string>& v, const std::string& text) {
    if (!v) return;
    static const std::regex shape(R"([0-9]+(\.[0-9]+)+)");
    check(std::regex_match(*v, shape), "version is dotted digits", *v);
    check(text.find(*v) != std::string::npos, "version is taken from the text", *v);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view raw(reinterpret_cast<const char*>(data), size);
    const std::string text = perfgate::probes::strip_ansi(raw);
    {
        {
            const auto r = perfgate::probes::parse_rocminfo(raw);
            for (const auto& a : r.agents) {
                check(one_clean_line(a.name) && one_clean_line(a.marketing_name) && one_clean_line(a.vendor) &&
                          one_clean_line(a.device_type), "rocminfo agent fields are single clean lines");
                if (a.chip_id) check(*a.chip_id > 0 && printed(text, *a.chip_id), "rocminfo chip id as printed");
                if (a.compute_units) check(printed(text, *a.compute_units), "rocminfo compute units as printed");
                if (a.largest_global_pool_bytes)
                    check(*a.largest_global_pool_bytes % 1024 == 0 && printed(text, *a.largest_global_pool_bytes / 1024),
                          "rocminfo pool size is the printed KB count times 1024");
            }
            check(r.gpus().size() <= r.agents.size(), "rocminfo gpus are a subset of agents");
        }
        {
            const auto r = perfgate::probes::parse_rocm_smi(raw);
            std::set<int> seen;
            for (const auto& c : r.cards) {
                check(seen.insert(c.index).second, "rocm-smi card indices are unique");
                check(c.index >= 0, "rocm-smi card index is not negative");
                if (c.card_series) check(!c.card_series->empty(), "rocm-smi card series is not empty");
                if (c.vram_total_bytes) check(printed(text, *c.vram_total_bytes), "rocm-smi VRAM as printed");
                if (c.gtt_total_bytes) check(printed(text, *c.gtt_total_bytes), "rocm-smi GTT as printed");
            }
            if (r.driver_version) check(one_clean_line(*r.driver_version), "rocm-smi driver version is one line");
        }
        {
            const auto r = perfgate::probes::parse_amd_smi(raw);
            check_version(r.rocm_version, text);
            if (r.device_name) check(!r.device_name->empty() && one_clean_line(*r.device_name), "amd-smi device name");
            if (r.vram_total_bytes)
                check(*r.vram_total_bytes % kMiB == 0 && printed(text, *r.vram_total_bytes / kMiB),
                      "amd-smi VRAM is the printed MB count times 2^20");
        }
        check_version(perfgate::probes::parse_hipconfig_version(raw), text);
        check_version(perfgate::probes::parse_rocm_version_file(raw), std::string(raw));
    }
    return 0;
}
