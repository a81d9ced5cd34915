#include "perfgate/gates/decision.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include "perfgate/core/metric.hpp"
#include "perfgate/gates/machine_spread.hpp"
#include "perfgate/gates/reference.hpp"

namespace perfgate::gates {

MetricCheck unjudged_metric(const std::string& metric, const std::vector<double>& baseline,
                            const std::vector<double>& current) {
    const Metric& m = perfgate::metric(metric);
    MetricCheck c;
    c.metric = metric;
    c.judged = false;
    c.baseline_samples = baseline;
    c.current_samples = current;
    if (!baseline.empty()) c.baseline_value = median(baseline);
    if (!current.empty()) c.current_value = median(current);
    c.verdict = baseline.empty() ? Verdict::new_pair : Verdict::not_comparable;
    c.reason = baseline.empty()
                   ? fmt::format("no {} in the baseline: recorded now, judged once the baseline has it", m.label)
                   : fmt::format("no {} now (the baseline has it): not judged", m.label);
    return c;
}

namespace {

// The verdict when no ratio of the two values can be formed; false when one can.
bool no_ratio(MetricCheck& c) {
    if (!c.baseline_value) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the baseline row has no {} value", c.metric);
        return true;
    }
    if (*c.baseline_value <= 0) {
        // mlxcel's tool dropped these silently (a 0.00 decode rate: 0 tokens generated).
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the baseline {} is {:.2f}, so no ratio can be formed", c.metric, *c.baseline_value);
        return true;
    }
    if (!c.current_value) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the current row has no {} value", c.metric);
        return true;
    }
    return false;
}

// One-sided p-values of the samples being worse and being better, in the metric's own direction.
struct DirectionalP {
    std::optional<double> worse, better;
};

DirectionalP directional_p(const Metric& m, StatTest test, const std::vector<double>& baseline,
                           const std::vector<double>& current) {
    const bool higher = m.better == Better::higher;
    return {higher ? p_lower(test, current, baseline) : p_lower(test, baseline, current),
            higher ? p_lower(test, baseline, current) : p_lower(test, current, baseline)};
}

// Single readings (or samples without any spread): the threshold alone decides, widened by the
// host's recorded noise. `worse` is the change in the bad direction.
void decide_by_threshold(MetricCheck& c, double worse, const Threshold& threshold, bool samples_both) {
    c.test = "threshold-only";
    c.max_drop = threshold.max_drop + threshold.noise;
    if (samples_both) c.reason = "samples show no spread; threshold alone";
    else if (threshold.noise > 0)
        c.reason = fmt::format("single reading; limit {:.1f}% widened by the host's noise {:.1f}%",
                               threshold.max_drop * 100, threshold.noise * 100);
    if (worse > c.max_drop) c.verdict = Verdict::regressed;
    else if (worse < -c.max_drop) c.verdict = Verdict::improved;
    else c.verdict = Verdict::unchanged;
}

// Beyond the threshold, the test of the samples must agree before the change counts.
void decide_by_test(MetricCheck& c, const Metric& m, double worse, double change, double p_worse, double p_better) {
    if (worse > c.max_drop) {
        c.p_value = p_worse;
        if (p_worse < c.alpha) {
            c.verdict = Verdict::regressed;
        } else {
            c.verdict = Verdict::inconclusive;
            c.reason = fmt::format("{} {:.1f}% (limit {:.1f}%) but p = {:.3g} >= alpha {:.3g}", worse_word(m),
                                   std::fabs(change) * 100, c.max_drop * 100, p_worse, c.alpha);
        }
    } else if (worse < -c.max_drop) {
        c.p_value = p_better;
        if (p_better < c.alpha) {
            c.verdict = Verdict::improved;
        } else {
            c.verdict = Verdict::within_noise;
            c.reason = fmt::format("{} {:.1f}% but p = {:.3g} >= alpha {:.3g}: not beyond the noise", better_word(m),
                                   std::fabs(change) * 100, p_better, c.alpha);
        }
    } else {
        c.p_value = worse > 0 ? p_worse : p_better;
        c.verdict = Verdict::unchanged;
    }
}

}  // namespace

MetricCheck decide_metric(const std::string& metric, const std::vector<double>& baseline,
                          const std::vector<double>& current, const Threshold& threshold, StatTest test) {
    const Metric& m = perfgate::metric(metric);
    MetricCheck c;
    c.metric = metric;
    c.baseline_samples = baseline;
    c.current_samples = current;
    c.alpha = threshold.alpha;
    c.max_drop = threshold.max_drop;
    c.threshold_source = threshold.source;
    if (!baseline.empty()) c.baseline_value = median(baseline);
    if (!current.empty()) c.current_value = median(current);
    if (no_ratio(c)) return c;
    const double change = *c.current_value / *c.baseline_value - 1.0;
    c.change = change;

    // Positive: worse, in the metric's own direction; 0 when too small to count at all.
    const double worse = negligible(m, *c.baseline_value, *c.current_value) ? 0.0 : worsening(m, change);
    const bool samples_both = baseline.size() >= 2 && current.size() >= 2;
    const DirectionalP p = samples_both ? directional_p(m, test, baseline, current) : DirectionalP{};
    if (!p.worse || !p.better) {
        decide_by_threshold(c, worse, threshold, samples_both);
        return c;
    }
    c.test = to_string(test);
    decide_by_test(c, m, worse, change, *p.worse, *p.better);
    return c;
}

}  // namespace perfgate::gates

namespace perfgate::gates {
namespace {

// A distance x in log-ratio units, in the bad direction, as the fraction the metric changes by:
// a rate drops by 1 - exp(-x), a memory figure rises by exp(x) - 1.
double worsening_of_log(const Metric& m, double x) { return m.better == Better::higher ? 1.0 - std::exp(-x) : std::exp(x) - 1.0; }

}  // namespace

namespace {

// The levels of the comparison (baseline = the reference level, current = median of this run) set
// on `c`; false, with the verdict set, when no ratio can be formed.
bool set_levels(MetricCheck& c, const Metric& m, const std::vector<double>& levels, const Reference& ref,
                const std::vector<double>& current) {
    if (levels.empty() && !ref.level) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the baseline has no {} value", c.metric);
        return false;
    }
    c.reference_runs = ref.count;
    if (ref.count == 0 && !ref.level) {
        c.verdict = Verdict::new_pair;
        c.reason = fmt::format("{}: this is the first run at the new level, and it becomes the reference", ref.moved);
        return false;
    }
    if (ref.count > 0)
        c.baseline_samples.assign(levels.begin() + static_cast<long>(ref.first),
                                  levels.begin() + static_cast<long>(ref.first + ref.count));
    else c.baseline_samples = {*ref.level};
    c.baseline_value = median(c.baseline_samples);
    if (*c.baseline_value <= 0) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the baseline {} is {:.2f}, so no ratio can be formed", c.metric, *c.baseline_value);
        return false;
    }
    if (current.empty()) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the current row has no {} value", c.metric);
        return false;
    }
    c.current_value = median(current);
    if (*c.current_value <= 0 && m.better == Better::higher) {
        c.verdict = Verdict::regressed;  // a rate of 0: nothing was generated
        c.change = -1.0;
        c.reason = fmt::format("{} is {:.2f} now", c.metric, *c.current_value);
        return false;
    }
    if (*c.current_value <= 0) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the current {} is {:.2f}, so no ratio can be formed", c.metric, *c.current_value);
        return false;
    }
    c.change = *c.current_value / *c.baseline_value - 1.0;
    return true;
}

// Which runs the reference is, in words, for the report.
std::string describe_reference(const std::vector<RunLevel>& history, const Reference& ref) {
    std::string runs;
    if (ref.count == 0) runs = "the acknowledged level (no run at it yet)";
    else if (ref.count == 1) runs = fmt::format("run {}", history[ref.first].run);
    else runs = fmt::format("median of {} runs from {} to {}", ref.count, history[ref.first].run,
                            history[ref.first + ref.count - 1].run);
    return ref.moved.empty() ? runs : fmt::format("{}; {}", runs, ref.moved);
}

// Where the noise window begins: the first run of the latest `sessions` sessions.
std::size_t noise_window_start(const std::vector<RunLevel>& history, std::size_t sessions) {
    std::size_t seen = 0, i = history.size();
    while (i > 0) {
        if (i == history.size() || !same_session(history[i - 1], history[i])) {
            if (seen == std::max<std::size_t>(sessions, 1)) break;
            ++seen;
        }
        --i;
    }
    return i;
}

// How many sessions hold the reference's runs.
std::size_t sessions_in(const std::vector<RunLevel>& history, const Reference& ref) {
    std::size_t count = 0;
    for (std::size_t i = ref.first; i < ref.first + ref.count && i < history.size(); ++i)
        if (i == ref.first || !same_session(history[i], history[i - 1])) ++count;
    return count;
}

// The spread and the quantiles of the rule that decides: the history's own (Student's t, sessions -
// segments degrees of freedom) with enough sessions, else the fallback's assumed spread (normal).
struct NoiseTerms {
    double sigma = 0;       // where one run of a new session lands, log scale: the spread reported
    double between = 0;     // the session effect: all of sigma unless some session holds two runs
    double within = 0;      // one run about its session's level; 0 when no session holds two runs
    double quantile = 0;    // one-sided (1 - alpha) bound in units of the standard error
    double power_term = 0;  // the power quantile behind the MDE
    double df = 1;          // of the t, when the history rule decides
    std::size_t sessions = 0;

    // The variance of one new session's level of `launches` launches: reruns share the session, so
    // they average its runs' own scatter only. With that scatter unmeasured, the whole spread is
    // taken as launch to launch (sigma^2 / launches), as runs that each are a session of their own
    // cannot tell the two apart.
    double run_variance(std::size_t launches) const {
        const double n = static_cast<double>(std::max<std::size_t>(launches, 1));
        return within > 0 ? between * between + within * within / n : sigma * sigma / n;
    }
    // The variance of the median of `runs` runs held by `in_sessions` sessions.
    double reference_variance(std::size_t runs, std::size_t in_sessions) const {
        if (within <= 0) return sigma * sigma * reference_variance_factor(runs);
        return between * between * reference_variance_factor(in_sessions) +
               within * within * reference_variance_factor(runs);
    }
};

NoiseTerms noise_terms(MetricCheck& c, const std::optional<SessionSpread>& measured, const Threshold& threshold,
                       const HistoryRule& rule) {
    NoiseTerms n;
    const bool enough =
        measured && measured->df >= 2 && measured->sessions >= std::max<std::size_t>(rule.min_runs, 3);
    if (enough) {
        c.test = "history";
        n.sigma = measured->one_run();
        n.between = measured->between;
        n.within = measured->within;
        n.sessions = measured->sessions;
        // Student's t with one degree of freedom per session beyond each segment's level: a spread
        // read off a handful of sessions is itself uncertain, and a normal quantile would trust it
        // too much.
        n.df = static_cast<double>(std::max<std::size_t>(measured->df, 1));
        boost::math::students_t t(n.df);
        n.quantile = boost::math::quantile(t, 1.0 - c.alpha);
        n.power_term = boost::math::quantile(t, rule.power);
    } else {
        c.test = "fallback";
        n.sigma = std::max(threshold.run_noise, measured ? measured->one_run() : 0.0);
        // The assumed spread stands for the session effect; a measured scatter of runs within a
        // session adds to it, and the reference of runs from one session is then as uncertain as
        // one session is (six runs within 71 seconds are one reading of that moment).
        n.within = measured ? measured->within : 0.0;
        n.between = n.sigma;
        n.sigma = std::sqrt(n.sigma * n.sigma + n.within * n.within);
        n.sessions = measured ? measured->sessions : 0;
        boost::math::normal z;
        n.quantile = boost::math::quantile(z, 1.0 - c.alpha);
        n.power_term = boost::math::quantile(z, rule.power);
    }
    // A history of identical readings (a replay, a rounded file) has no spread; a tenth of a percent
    // keeps the bound finite without pretending to a precision no run has.
    if (n.sigma < 0.001) {
        n.sigma = n.between = 0.001;
        n.within = 0;
    }
    c.run_noise = n.sigma;
    return n;
}

// The variance of the current level: one run's median is as uncertain as any run of a new session
// (NoiseTerms::run_variance), or more when this run's own repetitions scatter (a contended minute):
// the standard error of a median of m samples is about 1.2533 s / sqrt(m).
double current_variance(const std::vector<double>& current, const NoiseTerms& noise, std::size_t current_launches) {
    double var = noise.run_variance(current_launches);
    std::vector<double> logs;
    for (double x : current)
        if (x > 0) logs.push_back(std::log(x));
    if (logs.size() < 2) return var;
    // Robust like the level itself: llama-bench's first prompt pass is often a cold outlier
    // (87,772 vs 178,582 and 189,999 tok/s on the H200), which the median ignores and a standard
    // deviation would not. With 3 or more samples the MAD scale, with 2 their gap.
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
    return std::max(var, median_se * median_se);
}

// One-sided p of d / se in the direction of the change.
double one_sided_p(double d, double se, bool t_test, double df) {
    if (t_test) {
        boost::math::students_t t(df);
        return d < 0 ? boost::math::cdf(t, d / se) : boost::math::cdf(boost::math::complement(t, d / se));
    }
    return d < 0 ? boost::math::cdf(boost::math::normal(), d / se)
                 : boost::math::cdf(boost::math::complement(boost::math::normal(), d / se));
}

// Which ways the change is beyond the noise; with too little history to trust an assumed spread
// alone, the within-run test of the repetitions must agree too.
struct BeyondNoise {
    bool worse = false, better = false;
    // Set when the change in the bad direction was beyond the assumed spread and the within-run
    // test of the repetitions did not agree: its name and one-sided p, for the reason.
    const char* blocked_by = nullptr;
    double blocked_p = 1;
    std::size_t reference_n = 0, current_n = 0;  // the repetitions it compared
};

BeyondNoise beyond_noise(const Metric& m, double worse_d, double bound, bool enough,
                         const std::vector<double>& reference_samples, const std::vector<double>& current,
                         double alpha, StatTest within) {
    BeyondNoise b{worse_d > bound, worse_d < -bound};
    if (enough || reference_samples.size() < 2 || current.size() < 2) return b;
    const bool higher = m.better == Better::higher;
    const auto worse_p = higher ? p_lower(within, current, reference_samples)
                                : p_lower(within, reference_samples, current);
    const auto better_p = higher ? p_lower(within, reference_samples, current)
                                 : p_lower(within, current, reference_samples);
    if (b.worse && worse_p && *worse_p >= alpha) {
        b.worse = false;
        b.blocked_by = to_string(within);
        b.blocked_p = *worse_p;
        b.reference_n = reference_samples.size();
        b.current_n = current.size();
    }
    if (better_p && *better_p >= alpha) b.better = false;
    return b;
}

// `bounded`: the change is within the floor both ways with the rule's power (its 95% bound), so
// "unchanged" is a claim the data support; else a quiet result is only "within noise".
void set_history_verdict(MetricCheck& c, const Metric& m, const BeyondNoise& noise_says, std::size_t runs,
                         bool bounded) {
    const double worse = negligible(m, *c.baseline_value, *c.current_value) ? 0.0 : worsening(m, *c.change);
    const bool floor_worse = worse > c.max_drop, floor_better = worse < -c.max_drop;
    const char* spread = c.test == "machines" ? "spread of a new machine" : "between-run spread";
    std::string noise = fmt::format("{} {} run{}", c.test, runs, runs == 1 ? "" : "s");
    if (c.history_sessions && *c.history_sessions < runs)
        noise += fmt::format(" in {} session{}", *c.history_sessions, *c.history_sessions == 1 ? "" : "s");
    noise += fmt::format(", {} {:.1f}%, MDE {:.1f}%", spread, *c.run_noise * 100, *c.min_detectable_effect * 100);
    if (c.family > 1) noise += fmt::format(", alpha {:.2g} (the suite's budget over {} decisions)", c.alpha, c.family);
    c.reason = noise;
    if (floor_worse && noise_says.worse) {
        c.verdict = Verdict::regressed;
    } else if (floor_worse && noise_says.blocked_by) {
        // Beyond the assumed between-run spread (c.p_value), but the runs' own repetitions scatter
        // too much for the within-run test to agree: say that, not "within the run-to-run noise"
        // beside a tiny p.
        c.verdict = Verdict::inconclusive;
        c.reason = fmt::format(
            "{} {:.1f}% (floor {:.1f}%), beyond the assumed between-run spread (p = {:.3g}), but the repetitions "
            "scatter too much to tell it from noise ({} p = {:.3g} over {} and {}, alpha {:.2g}; {})",
            worse_word(m), std::fabs(*c.change) * 100, c.max_drop * 100, *c.p_value, noise_says.blocked_by,
            noise_says.blocked_p, noise_says.reference_n, noise_says.current_n, c.alpha, noise);
    } else if (floor_worse) {
        c.verdict = Verdict::inconclusive;
        c.reason = fmt::format("{} {:.1f}% (floor {:.1f}%) but within the run-to-run noise ({}; p = {:.3g})",
                               worse_word(m), std::fabs(*c.change) * 100, c.max_drop * 100, noise, *c.p_value);
    } else if (floor_better && noise_says.better) {
        c.verdict = Verdict::improved;
    } else if (bounded) {
        c.verdict = Verdict::unchanged;
    } else {
        c.verdict = Verdict::within_noise;
        c.reason = fmt::format("within the noise, which cannot rule out a change beyond the floor {:.1f}% ({})",
                               c.max_drop * 100, noise);
    }
}

}  // namespace

MetricCheck decide_metric_history(const std::string& metric, const std::vector<RunLevel>& history,
                                  const Reference& reference, const std::vector<double>& reference_samples,
                                  const std::vector<double>& current, std::size_t current_launches,
                                  const Threshold& threshold, StatTest within, const HistoryRule& rule) {
    const Metric& m = perfgate::metric(metric);
    MetricCheck c;
    c.metric = metric;
    // The suite's error budget: the decisions of one run share alpha (Bonferroni), so an unchanged
    // suite run fails with probability at most alpha, not alpha per decision.
    c.family = std::max<std::size_t>(rule.family, 1);
    c.alpha = threshold.alpha * std::clamp(rule.alpha_share, 1e-9, 1.0);
    c.max_drop = threshold.max_drop;
    c.threshold_source = threshold.source;
    c.current_samples = current;
    std::vector<double> all;
    for (const auto& h : history) all.push_back(h.value);
    if (!set_levels(c, m, all, reference, current)) return c;
    c.reference = describe_reference(history, reference);

    // The noise: the runs of the latest K sessions, pooled within the segments that fall among
    // them: the reference's and the steps found inside those (noise_segments), searched over the
    // whole history read, where a step of a few runs at its end stands out better than in K runs.
    const std::size_t skip = noise_window_start(history, rule.noise_runs);
    const std::vector<RunLevel> window(history.begin() + static_cast<long>(skip), history.end());
    std::vector<std::size_t> starts;
    for (std::size_t s : noise_segments(all, reference.starts))
        if (s > skip && s < all.size()) starts.push_back(s - skip);
    c.history_runs = window.size();

    const double d = std::log(*c.current_value / *c.baseline_value);
    const auto spread = session_spread(window, starts);
    const NoiseTerms n = noise_terms(c, spread, threshold, rule);
    c.history_sessions = n.sessions;
    const double se = std::sqrt(current_variance(current, n, current_launches) +
                                n.reference_variance(reference.count, sessions_in(history, reference)));
    c.min_detectable_effect =
        worsening_of_log(m, std::max(n.quantile * se, floor_in_log(m, c.max_drop)) + n.power_term * se);
    const bool t_test = c.test == "history";
    c.p_value = one_sided_p(d, se, t_test, n.df);
    c.floor_false_alarm = one_sided_p(-floor_in_log(m, c.max_drop), se, t_test, n.df);
    const auto noise_says = beyond_noise(m, worsening_log(m, d), n.quantile * se, t_test, reference_samples, current,
                                         c.alpha, within);
    const bool bounded = negligible(m, *c.baseline_value, *c.current_value) ||
                         std::fabs(d) + n.power_term * se <= floor_in_log(m, c.max_drop);
    set_history_verdict(c, m, noise_says, window.size(), bounded);
    if (spread && !spread->set_aside_run.empty())
        c.reason += fmt::format("; one session set aside as an outlier (run {} at {:+.1f}% of the others' level)",
                                spread->set_aside_run, (spread->set_aside_ratio - 1) * 100);
    return c;
}

MetricCheck decide_metric_history(const std::string& metric, const std::vector<RunLevel>& history,
                                  const std::vector<double>& reference_samples, const std::vector<double>& current,
                                  std::size_t current_launches, const Threshold& threshold, StatTest within,
                                  const HistoryRule& rule) {
    const Reference ref = find_reference(history, {}, perfgate::metric(metric), threshold.max_drop, rule.reference);
    return decide_metric_history(metric, history, ref, reference_samples, current, current_launches, threshold, within,
                                 rule);
}

MetricCheck decide_metric_across_machines(const std::string& metric, const MachineSpread& spread,
                                          const std::vector<double>& current, const Threshold& threshold,
                                          const HistoryRule& rule) {
    const Metric& m = perfgate::metric(metric);
    MetricCheck c;
    c.metric = metric;
    c.test = "machines";
    c.family = std::max<std::size_t>(rule.family, 1);
    c.alpha = threshold.alpha * std::clamp(rule.alpha_share, 1e-9, 1.0);
    c.max_drop = threshold.max_drop;
    c.threshold_source = threshold.source;
    c.current_samples = current;
    c.history_runs = spread.runs;
    c.baseline_value = std::exp(spread.centre);
    c.reference = fmt::format("the centre of {} other machines ({} runs): each machine's mean level, weighted alike",
                              spread.machines, spread.runs);
    if (current.empty() || median(current) <= 0) {
        c.verdict = Verdict::not_comparable;
        c.reason = fmt::format("the current row has no positive {} value", c.metric);
        return c;
    }
    c.current_value = median(current);
    c.change = *c.current_value / *c.baseline_value - 1.0;
    const double d = std::log(*c.current_value / *c.baseline_value);
    // Where an unchanged run of a new machine lands: the machines' own spread, a run's spread on
    // its machine and the uncertainty of the centre; t with machines - 1 degrees of freedom, since
    // the between-machine spread is read off that few machines.
    const double se = std::max(spread.predictive, 0.001);
    c.run_noise = se;
    const boost::math::students_t t(std::max(spread.df, 1.0));
    const double quantile = boost::math::quantile(t, 1.0 - c.alpha);
    const double power_term = boost::math::quantile(t, rule.power);
    const double floor_log = floor_in_log(m, c.max_drop);
    c.min_detectable_effect = worsening_of_log(m, std::max(quantile * se, floor_log) + power_term * se);
    c.p_value = one_sided_p(d, se, true, spread.df);
    c.floor_false_alarm = one_sided_p(-floor_log, se, true, spread.df);
    const double worse_d = worsening_log(m, d);
    const BeyondNoise noise_says{worse_d > quantile * se, worse_d < -quantile * se};
    const bool bounded = negligible(m, *c.baseline_value, *c.current_value) || std::fabs(d) + power_term * se <= floor_log;
    set_history_verdict(c, m, noise_says, spread.runs, bounded);
    // The spread that decided is the machines', not one machine's runs: said so in the reason.
    c.reason = fmt::format("judged across {} other machines (between machines {:.1f}%, within one {:.1f}%): {}",
                           spread.machines, spread.between * 100, spread.within * 100, c.reason);
    return c;
}

}  // namespace perfgate::gates
