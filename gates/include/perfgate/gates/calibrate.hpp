#pragma once
// Host calibration (perfgate calibrate): from K unchanged runs of a suite (A/A), the run-to-run noise
// of every pair and metric, and thresholds that hold the false-alarm rate at a target, with the
// smallest drop they still detect. The statistics live here; running the suite is the caller's
// (cli/calibrate_command.cpp calls perf's run_pair). Method: docs/verdict-quality.md.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"
#include "perfgate/gates/statistics.hpp"
#include "perfgate/gates/thresholds.hpp"

namespace perfgate::gates {

// Run-to-run noise of one metric of one pair, from one value per unchanged run.
struct NoiseEstimate {
    std::size_t readings = 0;
    double median = 0;
    double mad = 0;        // median absolute deviation from the median (same unit as the metric)
    double robust_cv = 0;  // 1.4826 * MAD / median: the normal-equivalent spread, immune to one outlier
    double cv = 0;         // sample standard deviation / mean: what outliers do to it
    // The relative spread the thresholds are built on: the larger of the two, because on a shared
    // host the outliers are real and cause false alarms too.
    double sigma() const { return robust_cv > cv ? robust_cv : cv; }
};

// At least 3 values, all positive and finite; otherwise an error saying which.
Expected<NoiseEstimate> estimate_noise(const std::vector<double>& values);

struct CalibrationOptions {
    double target_false_alarm = 0.01;  // per metric decision between unchanged runs
    std::size_t repetitions = 3;       // samples per side the gate will see (the suite's repetitions)
    double power = 0.95;               // detection probability behind "minimum detectable effect"
    StatTest test = StatTest::welch_t; // the gate's test
};

// The thresholds for one pair and metric, and what they can detect.
struct CalibratedMetric {
    std::string model;
    std::string runtime;
    std::string metric;  // decode_tok_s, prefill_tok_s
    NoiseEstimate noise;
    double max_drop = 0;  // drop tolerated with samples on both sides (never below the base policy)
    double alpha = 0;     // significance level of the one-sided test (at most the target)
    double widen = 0;     // the file's "noise": added to max_drop for single readings
    double run_noise = 0; // between-run spread of the runs (noise_model.hpp): the fallback rule's prior
    double min_detectable_effect = 0;                // at `repetitions` per side, with `power`
    double single_reading_min_detectable_effect = 0;  // one reading per side
    // Smallest repetitions per side (2..50) that detect a 5% / 10% drop with the power, with max_drop
    // at most half the effect (the default 5% would forbid detecting a 5% drop at all).
    std::optional<std::size_t> repetitions_for_5pct;
    std::optional<std::size_t> repetitions_for_10pct;
};

// Derives the thresholds from the noise: `base` is what the existing files say (defaults and any host
// file); the calibrated max_drop never goes below base.max_drop and alpha never above base.alpha.
// Options out of range are programmer errors (the CLI validates them).
CalibratedMetric calibrate_metric(const std::string& model, const std::string& runtime, const std::string& metric,
                                  const NoiseEstimate& noise, const Threshold& base, const CalibrationOptions& options);

// Probability that the gate's rule (decide_metric with `threshold`) calls a true drop `drop` with n
// readings per side of relative normal spread sigma "regressed" (a seeded simulation of `trials`).
double detection_power(double sigma, std::size_t n, double drop, const Threshold& threshold, StatTest test,
                       std::size_t trials);

// Smallest drop (a fraction) detected with `power` by that rule; 1.0 when not even a 99% drop is.
double min_detectable_effect(double sigma, std::size_t n, const Threshold& threshold, StatTest test, double power);

// Facts written to the file's "calibration" section.
struct CalibrationRun {
    std::string suite;
    std::string host_tag;
    std::string date;  // YYYY-MM-DD
    std::size_t runs = 0;
    CalibrationOptions options;
};

// A thresholds file (thresholds/<host_tag>.json) holding one override per pair and metric, each
// with its "calibration" facts. The text passes parse_threshold_file.
std::string render_calibrated_thresholds(const CalibrationRun& run, const std::vector<CalibratedMetric>& metrics);

// Human-readable table: noise, thresholds and minimum detectable effect per pair and metric.
std::string render_calibration_report(const CalibrationRun& run, const std::vector<CalibratedMetric>& metrics);

// Groups the rows of K runs by (model, runtime) in first-seen order and calibrates decode_tok_s and
// prefill_tok_s of each pair (a row's value of the metric is one reading; rows without it or with a
// non-ok status are left out). A pair/metric with fewer than 3 readings is an error naming it.
Expected<std::vector<CalibratedMetric>> calibrate_rows(const std::vector<ResultRow>& rows, const ThresholdSet& base,
                                                       const CalibrationOptions& options);

}  // namespace perfgate::gates
