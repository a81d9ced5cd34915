#include "perfgate/gates/decision.hpp"

#include <fmt/format.h>

namespace perfgate::gates {

MetricCheck decide_metric(const std::string& metric, const std::vector<double>& baseline,
                          const std::vector<double>& current, const Threshold& threshold, StatTest test) {
    MetricCheck c;
    c.metric = metric;
    c.baseline_samples = baseline;
    c.current_samples = current;
    c.alpha = threshold.alpha;
    c.max_drop = threshold.max_drop;
    c.threshold_source = threshold.source;
    if (!baseline.empty()) c.baseline_value = median(baseline);
    if (!current.empty()) c.current_value = median(current);

    if (!c.baseline_value) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the baseline row has no {} value", metric);
        return c;
    }
    if (*c.baseline_value <= 0) {
        // mlxcel's tool dropped these silently (a 0.00 decode rate: 0 tokens generated).
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the baseline {} is {:.2f}, so no ratio can be formed", metric, *c.baseline_value);
        return c;
    }
    if (!c.current_value) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the current row has no {} value", metric);
        return c;
    }
    const double change = *c.current_value / *c.baseline_value - 1.0;
    c.change = change;

    const bool samples_both = baseline.size() >= 2 && current.size() >= 2;
    std::optional<double> p_down, p_up;
    if (samples_both) {
        p_down = p_lower(test, current, baseline);
        p_up = p_lower(test, baseline, current);
    }
    if (!p_down || !p_up) {
        // Single readings (or samples without any spread): the threshold alone decides, widened by
        // the host's recorded noise.
        c.test = "threshold-only";
        c.max_drop = threshold.max_drop + threshold.noise;
        if (samples_both) c.reason = "samples show no spread; threshold alone";
        else if (threshold.noise > 0)
            c.reason = fmt::format("single reading; limit {:.1f}% widened by the host's noise {:.1f}%",
                                   threshold.max_drop * 100, threshold.noise * 100);
        if (change < -c.max_drop) c.verdict = Verdict::regressed;
        else if (change > c.max_drop) c.verdict = Verdict::improved;
        else c.verdict = Verdict::unchanged;
        return c;
    }
    c.test = to_string(test);
    if (change < -c.max_drop) {
        c.p_value = p_down;
        if (*p_down < c.alpha) {
            c.verdict = Verdict::regressed;
        } else {
            c.verdict = Verdict::inconclusive;
            c.reason = fmt::format("dropped {:.1f}% (limit {:.1f}%) but p = {:.3g} >= alpha {:.3g}", -change * 100,
                                   c.max_drop * 100, *p_down, c.alpha);
        }
    } else if (change > c.max_drop) {
        c.p_value = p_up;
        if (*p_up < c.alpha) {
            c.verdict = Verdict::improved;
        } else {
            c.verdict = Verdict::unchanged;
            c.reason = fmt::format("rose {:.1f}% but p = {:.3g} >= alpha {:.3g}", change * 100, *p_up, c.alpha);
        }
    } else {
        c.p_value = change < 0 ? p_down : p_up;
        c.verdict = Verdict::unchanged;
    }
    return c;
}

}  // namespace perfgate::gates
