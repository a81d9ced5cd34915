#include "perfgate/gates/calibrate.hpp"

#include "perfgate/gates/noise_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "perfgate/gates/decision.hpp"
#include "perfgate/gates/statistics.hpp"
#include "rounding.hpp"

namespace perfgate::gates {
namespace {

// MAD of a normal sample times this is its standard deviation.
constexpr double kMadToSigma = 1.4826;
// Largest repetition count searched for "repetitions needed for a 5%/10% drop".
constexpr std::size_t kMaxRepetitionsSearched = 50;

double normal_quantile(double p) { return boost::math::quantile(boost::math::normal(), p); }

// Spread of the median of n readings relative to one reading's: the mean for n <= 2, and the median's
// large-sample factor sqrt(pi/2) above (slightly larger than the exact small-n factors, so the
// thresholds err on the side of fewer false alarms).
double median_factor(std::size_t n) { return n <= 2 ? 1.0 : std::sqrt(M_PI / 2.0); }

// Standard deviation of "median(now)/median(baseline) - 1" between unchanged runs, n per side.
double change_sigma(double sigma, std::size_t n) {
    return sigma * median_factor(n) * std::sqrt(2.0 / static_cast<double>(n));
}

// A max_drop for n repetitions that the noise alone crosses with probability at most `target`
// (never below the base policy): the limit for single readings, which have no test.
double max_drop_for(double sigma, std::size_t n, double base_max_drop, double target) {
    const double needed = normal_quantile(1.0 - target) * change_sigma(sigma, n);
    return std::min(std::max(base_max_drop, needed), 0.95);
}

using detail::round_to;

}  // namespace

Expected<NoiseEstimate> estimate_noise(const std::vector<double>& values) {
    if (values.size() < 3)
        return make_error(fmt::format("{} reading(s); noise needs at least 3 unchanged runs", values.size()));
    for (double v : values)
        if (!std::isfinite(v) || v <= 0) return make_error(fmt::format("reading {} is not a positive number", v));
    NoiseEstimate n;
    n.readings = values.size();
    n.median = median(values);
    std::vector<double> dev;
    dev.reserve(values.size());
    for (double v : values) dev.push_back(std::fabs(v - n.median));
    n.mad = median(dev);
    n.robust_cv = kMadToSigma * n.mad / n.median;
    const double m = mean(values);
    double ss = 0;
    for (double v : values) ss += (v - m) * (v - m);
    n.cv = std::sqrt(ss / static_cast<double>(values.size() - 1)) / m;
    return n;
}

double detection_power(double sigma, std::size_t n, double drop, const Threshold& threshold, StatTest test,
                       std::size_t trials) {
    // Multiplicative normal noise of relative spread sigma on both sides, the current side `drop`
    // lower; the decision is the gate's own decide_metric, so every detail of the rule (medians, the
    // threshold, the test and its degrees of freedom) is in the number. A fixed seed keeps the
    // calibrated file reproducible.
    std::mt19937_64 rng(0x9e3779b97f4a7c15ull);
    std::normal_distribution<double> z(0.0, 1.0);
    auto reading = [&](double level) { return std::max(level * (1.0 + sigma * z(rng)), level * 1e-3); };
    std::size_t detected = 0;
    std::vector<double> base(n), now(n);
    for (std::size_t i = 0; i < trials; ++i) {
        for (auto& v : base) v = reading(100.0);
        for (auto& v : now) v = reading(100.0 * (1.0 - drop));
        if (decide_metric("decode_tok_s", base, now, threshold, test).verdict == Verdict::regressed) ++detected;
    }
    return static_cast<double>(detected) / static_cast<double>(trials);
}

double min_detectable_effect(double sigma, std::size_t n, const Threshold& threshold, StatTest test, double power) {
    constexpr std::size_t kTrials = 2000;
    double lo = 0.0, hi = 0.99;
    if (detection_power(sigma, n, hi, threshold, test, kTrials) < power) return 1.0;  // not even a 99% drop
    for (int i = 0; i < 14; ++i) {  // ~0.01% resolution
        const double mid = 0.5 * (lo + hi);
        (detection_power(sigma, n, mid, threshold, test, kTrials) >= power ? hi : lo) = mid;
    }
    return hi;
}

namespace {

// Smallest n in [2, 50] whose rule detects `effect` with the power, with max_drop at most half the
// effect (the policy's max_drop would otherwise forbid detecting a drop as small as itself).
std::optional<std::size_t> repetitions_for(double effect, double sigma, const Threshold& base, double alpha,
                                           const CalibrationOptions& o) {
    auto detects = [&](std::size_t k) {
        Threshold t;
        t.max_drop = std::min(base.max_drop, effect / 2);
        t.alpha = alpha;
        return detection_power(sigma, k, effect, t, o.test, 2000) >= o.power;
    };
    if (!detects(kMaxRepetitionsSearched)) return std::nullopt;
    std::size_t lo = 1, hi = kMaxRepetitionsSearched;  // detects(hi) holds; find the smallest
    while (hi - lo > 1) {
        const std::size_t mid = (lo + hi) / 2;
        (mid >= 2 && detects(mid) ? hi : lo) = mid;
    }
    return hi;
}

}  // namespace

CalibratedMetric calibrate_metric(const std::string& model, const std::string& runtime, const std::string& metric,
                                  const NoiseEstimate& noise, const Threshold& base, const CalibrationOptions& o) {
    CalibratedMetric c;
    c.model = model;
    c.runtime = runtime;
    c.metric = metric;
    c.noise = noise;
    const double sigma = noise.sigma();
    const double t = o.target_false_alarm;
    const std::size_t n = std::max<std::size_t>(o.repetitions, 1);
    // With samples on both sides the one-sided test at alpha = target holds the false-alarm rate (the
    // A/A experiment in docs/verdict-quality.md checks that on real noise); max_drop stays the policy's
    // "smallest drop worth failing". Widening it by the noise as well would only cost power.
    c.alpha = std::min(base.alpha, t);
    c.max_drop = base.max_drop;
    // Single readings have no test: the threshold alone must hold the target.
    if (n < 2) c.max_drop = round_to(max_drop_for(sigma, 1, base.max_drop, t), 4);
    // Single readings: the limit max_drop + widen must hold the target on a one-reading change.
    const double single_limit = normal_quantile(1.0 - t) * sigma * std::sqrt(2.0);
    c.widen = round_to(std::clamp(single_limit - c.max_drop, 0.0, 0.95), 4);
    Threshold applied;
    applied.max_drop = c.max_drop;
    applied.alpha = c.alpha;
    applied.noise = c.widen;
    c.min_detectable_effect = min_detectable_effect(sigma, n, applied, o.test, o.power);
    c.single_reading_min_detectable_effect = min_detectable_effect(sigma, 1, applied, o.test, o.power);
    c.repetitions_for_5pct = repetitions_for(0.05, sigma, base, c.alpha, o);
    c.repetitions_for_10pct = repetitions_for(0.10, sigma, base, c.alpha, o);
    return c;
}

std::string render_calibrated_thresholds(const CalibrationRun& run, const std::vector<CalibratedMetric>& metrics) {
    using nlohmann::ordered_json;
    ordered_json doc;
    doc["description"] = fmt::format(
        "Written by `perfgate calibrate --suite {}` on {} from {} unchanged runs of host {}: per pair and metric, "
        "thresholds that keep the false-alarm rate at or below {} with {} repetitions per side. "
        "Recalibrate instead of editing by hand; method in docs/verdict-quality.md.",
        run.suite, run.date, run.runs, run.host_tag, run.options.target_false_alarm, run.options.repetitions);
    doc["calibration"] = {{"suite", run.suite},
                          {"host_tag", run.host_tag},
                          {"date", run.date},
                          {"runs", run.runs},
                          {"repetitions", run.options.repetitions},
                          {"target_false_alarm", run.options.target_false_alarm},
                          {"power", run.options.power}};
    doc["metrics"] = ordered_json::object();
    ordered_json overrides = ordered_json::array();
    for (const auto& m : metrics) {
        ordered_json facts = {{"readings", m.noise.readings},
                              {"median", round_to(m.noise.median, 4)},
                              {"mad", round_to(m.noise.mad, 4)},
                              {"robust_cv", round_to(m.noise.robust_cv, 5)},
                              {"cv", round_to(m.noise.cv, 5)},
                              {"min_detectable_effect", round_to(m.min_detectable_effect, 4)},
                              {"single_reading_min_detectable_effect", round_to(m.single_reading_min_detectable_effect, 4)}};
        facts["repetitions_for_5pct"] = m.repetitions_for_5pct ? ordered_json(*m.repetitions_for_5pct) : ordered_json(nullptr);
        facts["repetitions_for_10pct"] = m.repetitions_for_10pct ? ordered_json(*m.repetitions_for_10pct) : ordered_json(nullptr);
        overrides.push_back({{"model", m.model},
                             {"runtime", m.runtime},
                             {"metric", m.metric},
                             {"max_drop", m.max_drop},
                             {"alpha", m.alpha},
                             {"noise", m.widen},
                             {"run_noise", round_to(std::max(m.run_noise, 0.00001), 5)},
                             {"calibration", facts}});
    }
    doc["overrides"] = overrides;
    return doc.dump(2) + "\n";
}

std::string render_calibration_report(const CalibrationRun& run, const std::vector<CalibratedMetric>& metrics) {
    std::string out = fmt::format(
        "calibration of host {} (suite {}, {} unchanged runs, target false-alarm rate {:.3g}, {} repetitions per side, power {:.2g})\n",
        run.host_tag, run.suite, run.runs, run.options.target_false_alarm, run.options.repetitions, run.options.power);
    out += fmt::format("{:<28} {:<14} {:<14} {:>10} {:>8} {:>8} {:>9} {:>7} {:>7} {:>9} {:>9} {:>6} {:>6}\n", "model",
                       "runtime", "metric", "median", "MAD", "cv%", "robustcv%", "drop%", "alpha", "widen%",
                       "MDE%", "n@5%", "n@10%");
    auto reps = [](const std::optional<std::size_t>& n) { return n ? std::to_string(*n) : std::string(">50"); };
    for (const auto& m : metrics) {
        out += fmt::format("{:<28} {:<14} {:<14} {:>10.2f} {:>8.2f} {:>8.2f} {:>9.2f} {:>7.2f} {:>7.3g} {:>9.2f} {:>9.2f} {:>6} {:>6}\n",
                           m.model, m.runtime, m.metric, m.noise.median, m.noise.mad, m.noise.cv * 100,
                           m.noise.robust_cv * 100, m.max_drop * 100, m.alpha, m.widen * 100,
                           m.min_detectable_effect * 100, reps(m.repetitions_for_5pct), reps(m.repetitions_for_10pct));
    }
    out += "MDE: smallest drop detected with the stated power at the configured repetitions per side; "
           "n@5%/n@10%: repetitions per side needed to detect a 5%/10% drop.\n";
    return out;
}

Expected<std::vector<CalibratedMetric>> calibrate_rows(const std::vector<ResultRow>& rows, const ThresholdSet& base,
                                                       const CalibrationOptions& options) {
    struct PairValues {
        std::string model, runtime;
        std::vector<double> decode, prefill;
    };
    std::vector<PairValues> pairs;
    for (const auto& r : rows) {
        auto it = std::find_if(pairs.begin(), pairs.end(),
                               [&](const PairValues& p) { return p.model == r.model && p.runtime == r.runtime; });
        if (it == pairs.end()) {
            pairs.push_back({r.model, r.runtime, {}, {}});
            it = pairs.end() - 1;
        }
        if (!r.status.ok()) continue;
        if (r.decode_tok_s) it->decode.push_back(*r.decode_tok_s);
        if (r.prefill_tok_s) it->prefill.push_back(*r.prefill_tok_s);
    }
    std::vector<CalibratedMetric> out;
    for (const auto& p : pairs) {
        for (const auto& [metric, values] : {std::pair<const char*, const std::vector<double>*>{"decode_tok_s", &p.decode},
                                             {"prefill_tok_s", &p.prefill}}) {
            auto noise = estimate_noise(*values);
            if (!noise)
                return make_error(fmt::format("{}/{} {}: {}", p.runtime, p.model, metric, noise.error().message));
            out.push_back(calibrate_metric(p.model, p.runtime, metric, *noise, base.lookup(metric, p.model, p.runtime), options));
            // The runs of an A/A campaign are a history in their own right: the same spread the
            // gate's noise model reads off benchmarks/.
            out.back().run_noise = std::max(between_run_sigma(*values).value_or(noise->sigma()), 0.00001);
        }
    }
    return out;
}

}  // namespace perfgate::gates
