#include "perfgate/gates/calibrate_history.hpp"

#include "perfgate/core/metric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "pair_history.hpp"
#include "perfgate/gates/noise_model.hpp"
#include "perfgate/gates/samples.hpp"
#include "perfgate/gates/statistics.hpp"
#include "rounding.hpp"

namespace perfgate::gates {
using detail::round_to;

Expected<std::vector<PairCalibration>> calibrate_from_history(const std::string& benchmarks_dir, const std::string& host,
                                                              const ThresholdSet& policy,
                                                              const HistoryCalibrationOptions& options) {
    // All rows of the host tag are one history here: the calibration is the tag's, whatever machine.
    auto histories = detail::read_pair_histories(benchmarks_dir, {host, false});
    if (!histories) return histories.error();

    std::vector<PairCalibration> out;
    for (const auto& s : *histories) {
        for (const auto& metric : gated_metrics()) {
            auto it = s.by_metric.find(metric);
            if (it == s.by_metric.end() || it->second.empty()) continue;
            std::vector<RunLevel> levels = it->second;  // oldest first
            PairCalibration c;
            c.model = s.model;
            c.runtime = s.runtime;
            c.metric = metric;
            c.runs = levels.size();
            if (levels.size() > options.history_runs)
                levels.erase(levels.begin(), levels.end() - static_cast<long>(options.history_runs));
            std::vector<double> values;
            for (const auto& l : levels) values.push_back(l.value);
            c.level = median(values);
            Threshold t = policy.lookup(metric, s.model, s.runtime);
            const DipSummary dips = unchanged_dips(values, c.level);
            c.deepest_dip = dips.deepest;
            c.outliers = dips.outliers;
            // Rounded up to a tenth of a percent; never above 90%, where a floor stops meaning anything.
            // Measured floors are for rates: peak memory repeats to a page on one machine, so its dips
            // say nothing about what another machine or driver moves it by.
            const bool measured = options.measured_floors && perfgate::metric(metric).better == Better::higher;
            const double lowest = measured ? t.ab_floor() : t.max_drop;
            t.max_drop = std::min(0.9, std::max(lowest, std::ceil(c.deepest_dip * 1000.0) / 1000.0));
            c.max_drop = t.max_drop;
            c.alpha = t.alpha;
            // Three runs give the estimator a spread: enough for the fallback rule's run_noise and
            // the floor; the history rule itself waits for rule.min_runs runs at gate time.
            c.calibrated = levels.size() >= 3;
            c.history_rule = levels.size() >= std::max<std::size_t>(options.rule.min_runs, 3);
            // The gate's own rule, asked about a current run at the latest level: what it would
            // detect is what the file promises.
            // Its noise from all the runs read here (the calibration looks further back than K).
            HistoryRule rule = options.rule;
            rule.noise_runs = levels.size();
            const MetricCheck check = decide_metric_history(metric, levels, {}, {levels.back().value}, 1, t,
                                                            StatTest::welch_t, rule);
            c.run_noise = check.run_noise.value_or(t.run_noise);
            c.min_detectable_effect = check.min_detectable_effect.value_or(1.0);
            out.push_back(std::move(c));
        }
    }
    return out;
}

DipSummary unchanged_dips(const std::vector<double>& values, double level) {
    // Robust spread of the runs on a log scale: the MAD of ln(value), as a normal standard deviation.
    std::vector<double> logs, deviations;
    for (double v : values) logs.push_back(std::log(v));
    const double center = std::log(level);
    for (double l : logs) deviations.push_back(std::abs(l - center));
    const double spread = 1.4826 * median(deviations);
    DipSummary out;
    for (double v : values) {
        const double dip = 1.0 - v / level;
        if (dip <= 0) continue;
        // Three runs or more say what is usual; a run far below them all is an outlier.
        if (values.size() >= 3 && std::log(level / v) > kOutlierSpreads * spread) {
            ++out.outliers;
            continue;
        }
        out.deepest = std::max(out.deepest, dip);
    }
    return out;
}

std::vector<RuntimePrior> runtime_priors(const std::vector<PairCalibration>& pairs) {
    std::vector<RuntimePrior> out;
    for (const auto& p : pairs) {
        if (!p.calibrated) continue;
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const RuntimePrior& r) { return r.runtime == p.runtime && r.metric == p.metric; });
        if (it == out.end()) it = out.insert(out.end(), RuntimePrior{p.runtime, p.metric, 0, 0});
        it->run_noise = std::max(it->run_noise, p.run_noise);
        ++it->pairs;
    }
    std::erase_if(out, [](const RuntimePrior& r) { return r.pairs < kRuntimePriorPairs; });
    return out;
}

std::string render_history_thresholds(const std::string& host, const std::string& date,
                                      const std::vector<PairCalibration>& pairs, const HistoryCalibrationOptions& options) {
    using nlohmann::ordered_json;
    ordered_json doc;
    std::size_t calibrated = 0;
    for (const auto& p : pairs) calibrated += p.calibrated ? 1 : 0;
    doc["description"] = fmt::format(
        "Written by `perfgate calibrate --from-history` on {} from the result CSVs of host {}: per pair and metric, "
        "the between-run spread of its latest {} runs (run_noise; pairs with at least 3 runs), which the gate's "
        "fallback rule uses when a pair's history is short, and a floor {}; pairs with at least {} runs are decided on "
        "their own history. The first overrides (model \"*\") are each runtime's prior for its pairs with fewer runs: "
        "the largest spread of its calibrated pairs. Recalibrate instead of editing by hand; method in docs/gate.md and "
        "docs/verdict-quality.md.",
        date, host, options.history_runs,
        options.measured_floors ? "measured: the deepest dip of an unchanged run, no lower than the metric's A/B floor "
                                  "(--measured-floors)"
                                : "no lower than the deepest dip of an unchanged run",
        options.rule.min_runs);
    doc["calibration"] = {{"method", "history"},
                          {"host_tag", host},
                          {"date", date},
                          {"history_runs", options.history_runs},
                          {"min_runs", options.rule.min_runs},
                          {"reference_runs", options.rule.reference.runs},
                          {"power", options.rule.power},
                          {"floors", options.measured_floors ? "measured" : "policy"},
                          {"metrics_calibrated", calibrated}};
    doc["metrics"] = ordered_json::object();
    ordered_json overrides = ordered_json::array();
    for (const auto& r : runtime_priors(pairs))
        overrides.push_back({{"model", "*"},
                             {"runtime", r.runtime},
                             {"metric", r.metric},
                             {"run_noise", std::max(round_to(r.run_noise, 5), 0.00001)},
                             {"calibration", {{"runtime_prior_pairs", r.pairs}}}});
    for (const auto& p : pairs) {
        if (!p.calibrated) continue;
        overrides.push_back({{"model", p.model},
                             {"runtime", p.runtime},
                             {"metric", p.metric},
                             {"max_drop", p.max_drop},
                             {"alpha", p.alpha},
                             {"run_noise", std::max(round_to(p.run_noise, 5), 0.00001)},
                             {"calibration",
                              {{"readings", p.runs},
                               {"median", round_to(p.level, 4)},
                               {"deepest_dip", round_to(p.deepest_dip, 4)},
                               {"min_detectable_effect", round_to(p.min_detectable_effect, 4)}}}});
        // Only where there were any: a file of pairs without outliers reads as before.
        if (p.outliers > 0) overrides.back()["calibration"]["outlier_runs_left_out"] = p.outliers;
    }
    doc["overrides"] = overrides;
    return doc.dump(2) + "\n";
}

std::string render_history_calibration_report(const std::string& host, const std::vector<PairCalibration>& pairs,
                                              const HistoryCalibrationOptions& options) {
    std::string out = fmt::format("calibration of host {} from its history (latest {} runs per pair; {} needed)\n",
                                  host, options.history_runs, options.rule.min_runs);
    out += fmt::format("{:<24} {:<13} {:<14} {:>5} {:>11} {:>8} {:>6} {:>6} {:>6} {:>6}  {}\n", "model", "runtime",
                       "metric", "runs", "level", "noise%", "dip%", "floor%", "alpha", "MDE%", "rule");
    for (const auto& p : pairs)
        out += fmt::format("{:<24} {:<13} {:<14} {:>5} {:>11.2f} {:>8.2f} {:>6.1f} {:>6.1f} {:>6.3g} {:>6.1f}  {}\n",
                           p.model, p.runtime, p.metric, p.runs, p.level, p.run_noise * 100, p.deepest_dip * 100,
                           p.max_drop * 100, p.alpha, p.min_detectable_effect * 100,
                           p.history_rule ? "history" : p.calibrated ? "fallback, calibrated" : "uncalibrated (fallback)");
    for (const auto& p : pairs)
        if (p.outliers > 0)
            out += fmt::format("warning: {} {} {}: {} run(s) more than {} robust standard deviations below the median left "
                               "out of the floor (look at them: a one-off slow run, or a regression that was accepted?)\n",
                               p.model, p.runtime, p.metric, p.outliers, kOutlierSpreads);
    out += fmt::format("noise: between-run spread of the runs' medians; dip: the deepest unchanged run below the median, "
                       "outliers left out; floor: max({}, dip); MDE: the drop the gate calls regressed with probability {:.2g} for one "
                       "current run against the reference level (median of the first {} runs).\n",
                       options.measured_floors ? "A/B floor" : "policy", options.rule.power, options.rule.reference.runs);
    return out;
}

}  // namespace perfgate::gates
