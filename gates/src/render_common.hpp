#pragma once
// Small formatting helpers shared by the exporters.
#include <fmt/format.h>

#include <optional>
#include <string>

#include "perfgate/core/metric.hpp"
#include "perfgate/gates/report.hpp"

namespace perfgate::gates::detail {

inline std::string number(const std::optional<double>& v) { return v ? fmt::format("{:.2f}", *v) : std::string("-"); }
// A metric's value as people read it: tok/s as recorded, bytes in MiB with the unit.
inline std::string number(const std::string& metric, const std::optional<double>& v) {
    const Metric* m = find_metric(metric);
    if (!v || !m || m->display_scale == 1.0) return number(v);
    return display_value(*m, *v);
}
inline std::string percent(const std::optional<double>& v) { return v ? fmt::format("{:+.1f}%", *v * 100) : std::string("-"); }
inline std::string samples_note(const MetricCheck& m) {
    if (m.history_runs > 0) return fmt::format("runs={}", m.history_runs);
    if (m.baseline_samples.empty() && m.current_samples.empty()) return "";
    return fmt::format("n={}/{}", m.baseline_samples.size(), m.current_samples.size());
}
// "Qwen3-0.6B-4bit (mlxcel, strixhalo-gfx1151, text)"
inline std::string pair_title(const PairReport& p) {
    std::string runtime = p.baseline_runtime.empty() || p.baseline_runtime == p.runtime
                              ? p.runtime
                              : p.runtime + " vs " + p.baseline_runtime;
    std::string extra;
    if (p.prompt_target_len) extra += fmt::format(", pp{}", *p.prompt_target_len);
    if (p.batch) extra += fmt::format(", batch {}", *p.batch);
    return fmt::format("{} ({}, {}, {}{})", p.model, runtime, p.host, p.harness, extra);
}

}  // namespace perfgate::gates::detail
