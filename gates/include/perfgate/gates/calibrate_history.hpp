#pragma once
// perfgate calibrate --from-history: once a host has enough runs in benchmarks/, its calibration
// needs no separate campaign. For every pair and metric, the between-run spread of its latest runs
// (noise_model.hpp) becomes the pair's `run_noise` in thresholds/<host>.json, with the floor and
// alpha of the policy and the minimum detectable effect the history rule then has.
#include <cstddef>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/decision.hpp"
#include "perfgate/gates/thresholds.hpp"

namespace perfgate::gates {

struct HistoryCalibrationOptions {
    std::size_t history_runs = 30;  // latest runs per pair (the gate's K is 10; calibration looks further back)
    HistoryRule rule;               // min_runs, reference, power: as the gate will use them
    // Floors measured, not a policy (issue 45 item 1): each pair's floor is the deepest dip of its
    // unchanged runs, no lower than the metric's A/B floor (ab_max_drop), instead of no lower than
    // the policy's max_drop; for rates only (peak memory keeps the policy's floor). On the H200 the flat 5% decode floor alone set llama-3.1-8b's MDE on a
    // new machine at 6.6%, where its runs never dipped 2% below their level.
    bool measured_floors = false;
};

struct PairCalibration {
    std::string model, runtime, metric;
    std::size_t runs = 0;        // runs found (at most K used)
    double level = 0;            // median of the runs' levels
    double run_noise = 0;        // between-run spread, relative
    double max_drop = 0, alpha = 0;  // max_drop: the pair's floor (see calibrate_from_history)
    double deepest_dip = 0;      // 1 - lowest level / median level over the runs used, outliers left out
    std::size_t outliers = 0;    // runs far below the others, left out of deepest_dip (unchanged_dips)
    double min_detectable_effect = 0;  // of the history rule at these settings
    bool calibrated = false;     // 3 runs or more: written to the file (run_noise, floor)
    bool history_rule = false;   // rule.min_runs runs or more: the gate decides on this history
};

// Every result CSV in `benchmarks_dir` whose file name carries host `host` (a series of any
// backend or runtime); rows that are not ok or belong to an A/B arm are left out. Errors name the
// file and line. Each pair's floor (max_drop) is the policy's, raised to the deepest dip of an
// unchanged run below the pair's median level: a pair whose runs land in two modes (tiny-llama-ci's
// llama-bench prefill on the H200: about 195k or 240k tok/s per process) has a spread that no
// normal model captures, and a drop it has already shown unchanged must not fail a pull request.
Expected<std::vector<PairCalibration>> calibrate_from_history(const std::string& benchmarks_dir, const std::string& host,
                                                              const ThresholdSet& policy,
                                                              const HistoryCalibrationOptions& options);

// A run further below the median than this many robust standard deviations (1.4826 x the MAD of
// the runs' logarithms) is an outlier: one slow run (a busy machine, a regression later reverted)
// must not become a pair's floor, or every later drop up to that depth would pass (issue 26 item 9).
inline constexpr double kOutlierSpreads = 3.5;

struct DipSummary {
    double deepest = 0;          // 1 - value / level of the lowest run that is not an outlier
    std::size_t outliers = 0;
};
// The dips below `level` (the runs' median) of an unchanged pair's runs.
DipSummary unchanged_dips(const std::vector<double>& values, double level);

// A runtime's prior for its pairs that have too few runs of their own (a model new to the suite, a
// runtime whose pairs ran once or twice): the largest between-run spread of its calibrated pairs,
// per metric, once at least kRuntimePriorPairs of them are calibrated. The 5% of the defaults is
// no prior for a runtime whose runs move by 20% (transformers on the H200): its new pairs would
// fail unchanged runs one time in ten. The largest, not a typical one: a pair never measured is
// assumed as noisy as the noisiest one that was.
inline constexpr std::size_t kRuntimePriorPairs = 2;
struct RuntimePrior {
    std::string runtime, metric;
    double run_noise = 0;
    std::size_t pairs = 0;  // calibrated pairs behind it
};
std::vector<RuntimePrior> runtime_priors(const std::vector<PairCalibration>& pairs);

// thresholds/<host>.json: the runtime priors (an override of model "*" per runtime and metric,
// run_noise only), then one override per calibrated pair and metric, which wins over its runtime's
// prior (within a file the later rule wins) (run_noise, max_drop, alpha,
// and a "calibration" section of facts). The text passes parse_threshold_file.
std::string render_history_thresholds(const std::string& host, const std::string& date,
                                      const std::vector<PairCalibration>& pairs, const HistoryCalibrationOptions& options);

// One line per pair and metric, the uncalibrated ones said so.
std::string render_history_calibration_report(const std::string& host, const std::vector<PairCalibration>& pairs,
                                              const HistoryCalibrationOptions& options);

}  // namespace perfgate::gates
