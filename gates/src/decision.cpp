#include "perfgate/gates/decision.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

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

namespace perfgate::gates {
namespace {

// 1 - exp(-x): a log-ratio distance as the fraction a rate drops by.
double drop_of_log(double x) { return 1.0 - std::exp(-x); }

}  // namespace

MetricCheck decide_metric_history(const std::string& metric, const std::vector<RunLevel>& history,
                                  const std::vector<double>& latest_baseline_samples,
                                  const std::vector<double>& current, std::size_t current_launches,
                                  const Threshold& threshold, StatTest within, const HistoryRule& rule) {
    MetricCheck c;
    c.metric = metric;
    c.alpha = threshold.alpha;
    c.max_drop = threshold.max_drop;
    c.threshold_source = threshold.source;
    c.current_samples = current;
    c.history_runs = history.size();
    if (history.empty()) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the baseline has no {} value", metric);
        return c;
    }
    const std::size_t window = std::min(std::max<std::size_t>(rule.baseline_window, 1), history.size());
    c.baseline_window = window;
    std::vector<double> levels;
    for (const auto& h : history) levels.push_back(h.value);
    const std::vector<double> recent(levels.end() - static_cast<long>(window), levels.end());
    c.baseline_samples = recent;
    c.baseline_value = median(recent);
    if (*c.baseline_value <= 0) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the baseline {} is {:.2f}, so no ratio can be formed", metric, *c.baseline_value);
        return c;
    }
    if (current.empty()) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the current row has no {} value", metric);
        return c;
    }
    c.current_value = median(current);
    if (*c.current_value <= 0) {
        c.verdict = Verdict::regressed;
        c.change = -1.0;
        c.reason = fmt::format("{} is {:.2f} now", metric, *c.current_value);
        return c;
    }
    c.change = *c.current_value / *c.baseline_value - 1.0;
    const double d = std::log(*c.current_value / *c.baseline_value);

    const bool enough = history.size() >= std::max<std::size_t>(rule.min_runs, 3);
    const auto measured = between_run_sigma(levels);
    double sigma = 0;
    double quantile = 0;      // one-sided (1 - alpha) bound in units of the standard error
    double power_term = 0;
    if (enough) {
        c.test = "history";
        sigma = *measured;
        // Student's t with one degree of freedom per run beyond the level: a spread read off a
        // handful of runs is itself uncertain, and a normal quantile would trust it too much.
        boost::math::students_t t(static_cast<double>(history.size() - 1));
        quantile = boost::math::quantile(t, 1.0 - threshold.alpha);
        power_term = boost::math::quantile(t, rule.power);
    } else {
        c.test = "fallback";
        sigma = std::max(threshold.run_noise, measured.value_or(0.0));
        boost::math::normal z;
        quantile = boost::math::quantile(z, 1.0 - threshold.alpha);
        power_term = boost::math::quantile(z, rule.power);
    }
    // A history of identical readings (a replay, a rounded file) has no spread; a tenth of a percent
    // keeps the bound finite without pretending to a precision no run has.
    sigma = std::max(sigma, 0.001);
    c.run_noise = sigma;
    const double launches = static_cast<double>(std::max<std::size_t>(current_launches, 1));
    // The current level is one run's median: as uncertain as any run (sigma^2 per launch), or more
    // when this run's own repetitions scatter (a contended minute): the standard error of a median
    // of m samples is about 1.2533 s / sqrt(m).
    double current_var = sigma * sigma / launches;
    if (current.size() >= 2) {
        std::vector<double> logs;
        for (double x : current)
            if (x > 0) logs.push_back(std::log(x));
        if (logs.size() >= 2) {
            // Robust like the level itself: llama-bench's first prompt pass is often a cold outlier
            // (87,772 vs 178,582 and 189,999 tok/s on the H200), which the median ignores and a
            // standard deviation would not. With 3 or more samples the MAD scale, with 2 their gap.
            double s = 0;
            if (logs.size() >= 3) {
                const double centre = median(logs);
                std::vector<double> dev;
                for (double x : logs) dev.push_back(std::fabs(x - centre));
                s = 1.482602218505602 * median(dev);
            } else {
                s = std::fabs(logs[1] - logs[0]) / std::sqrt(2.0);
            }
            const double median_se = 1.2533 * s / std::sqrt(static_cast<double>(logs.size()));
            current_var = std::max(current_var, median_se * median_se);
        }
    }
    const double se = std::sqrt(current_var + sigma * sigma / static_cast<double>(window));
    const double floor_log = -std::log(1.0 - c.max_drop);
    c.min_detectable_effect = drop_of_log(std::max(quantile * se, floor_log) + power_term * se);
    if (enough) {
        boost::math::students_t t(static_cast<double>(history.size() - 1));
        c.p_value = d < 0 ? boost::math::cdf(t, d / se) : boost::math::cdf(boost::math::complement(t, d / se));
    } else {
        c.p_value = d < 0 ? boost::math::cdf(boost::math::normal(), d / se)
                          : boost::math::cdf(boost::math::complement(boost::math::normal(), d / se));
    }

    const bool beyond_floor_down = *c.change < -c.max_drop, beyond_floor_up = *c.change > c.max_drop;
    bool beyond_noise_down = d < -quantile * se, beyond_noise_up = d > quantile * se;
    if (!enough && latest_baseline_samples.size() >= 2 && current.size() >= 2) {
        // Too little history to trust an assumed spread alone: the repetitions must agree too.
        const auto down = p_lower(within, current, latest_baseline_samples);
        const auto up = p_lower(within, latest_baseline_samples, current);
        if (down && *down >= threshold.alpha) beyond_noise_down = false;
        if (up && *up >= threshold.alpha) beyond_noise_up = false;
    }
    const std::string noise = fmt::format("{} {} run{}, between-run spread {:.1f}%, MDE {:.1f}%", c.test,
                                          history.size(), history.size() == 1 ? "" : "s", sigma * 100,
                                          *c.min_detectable_effect * 100);
    if (beyond_floor_down && beyond_noise_down) {
        c.verdict = Verdict::regressed;
        c.reason = noise;
    } else if (beyond_floor_down) {
        c.verdict = Verdict::inconclusive;
        c.reason = fmt::format("dropped {:.1f}% (floor {:.1f}%) but within the run-to-run noise ({}; p = {:.3g})",
                               -*c.change * 100, c.max_drop * 100, noise, *c.p_value);
    } else if (beyond_floor_up && beyond_noise_up) {
        c.verdict = Verdict::improved;
        c.reason = noise;
    } else {
        c.verdict = Verdict::unchanged;
        c.reason = noise;
    }
    return c;
}

}  // namespace perfgate::gates
