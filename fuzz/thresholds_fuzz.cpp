// thresholds/*.json: a file either parses into rules whose values are inside the documented ranges
// and whose origins point at a real line, or fails with "<name>:<line>: ..." naming a real line.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "perfgate/gates/thresholds.hpp"

using perfgate::fuzz::check;
using perfgate::fuzz::names_file_and_line;

namespace {
bool in_range(const std::optional<double>& v, double lo, bool lo_open, double hi, bool hi_open) {
    if (!v) return true;
    if (!std::isfinite(*v)) return false;
    return (lo_open ? *v > lo : *v >= lo) && (hi_open ? *v < hi : *v <= hi);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::string name = "thresholds/fuzz.json";
    auto parsed = perfgate::gates::parse_threshold_file(text, name);
    if (!parsed) {
        check(names_file_and_line(parsed.error().message, name, text), "threshold error names file:line", parsed.error().message);
        return 0;
    }
    for (const auto& rule : parsed->rules) {
        check(names_file_and_line(rule.where + ":", name, text), "rule origin is file:line", rule.where);
        check(in_range(rule.fields.max_drop, 0, false, 1, true), "0 <= max_drop < 1");
        check(in_range(rule.fields.alpha, 0, true, 0.5, false), "0 < alpha <= 0.5");
        check(in_range(rule.fields.noise, 0, false, 1, true), "0 <= noise < 1");
        check(!rule.metric.empty() && !rule.model.empty() && !rule.runtime.empty(), "rule globs are not empty");
    }
    // Whatever the file says, a lookup over the defaults plus this file stays in range.
    perfgate::gates::ThresholdSet set;
    set.add_layer(perfgate::gates::builtin_default_thresholds());
    set.add_layer(*parsed);
    for (const char* metric : {"decode_tok_s", "prefill_tok_s", "peak_memory_gb"}) {
        const auto t = set.lookup(metric, "qwen3-0.6b", "llama-bench");
        check(in_range(t.max_drop, 0, false, 1, true) && in_range(t.alpha, 0, true, 0.5, false) &&
                  in_range(t.noise, 0, false, 1, true), "looked-up threshold is in range");
        check(!t.source.empty(), "a looked-up threshold names where it came from");
    }
    return 0;
}
