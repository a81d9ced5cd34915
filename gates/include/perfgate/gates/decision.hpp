#pragma once
// The decision rule for one metric of one pair (docs/gate.md, "Decision").
#include <string>
#include <vector>

#include "perfgate/gates/machine_spread.hpp"
#include "perfgate/gates/noise_model.hpp"
#include "perfgate/gates/reference.hpp"
#include "perfgate/gates/report.hpp"
#include "perfgate/gates/statistics.hpp"
#include "perfgate/gates/thresholds.hpp"

namespace perfgate::gates {

// Compares current against baseline samples of `metric` (tok/s: higher is better).
MetricCheck decide_metric(const std::string& metric, const std::vector<double>& baseline,
                          const std::vector<double>& current, const Threshold& threshold, StatTest test);

// An optional metric (Metric::required false) that one side lacks: its readings are reported, its
// verdict says which side lacks it, and it is not judged (MetricCheck::judged false).
MetricCheck unjudged_metric(const std::string& metric, const std::vector<double>& baseline,
                            const std::vector<double>& current);

// How the history decides (docs/gate.md, "Decision").
struct HistoryRule {
    std::size_t min_runs = 5;     // history sessions needed to trust its own spread; fewer: fallback
    std::size_t noise_runs = 10;  // K: the latest sessions of a pair whose runs' spread is its noise
    // Runs of one machine that start less than this after the previous run ended are one session
    // (noise_model.hpp, assign_sessions; docs/gate.md, "Sessions").
    long long session_gap_s = 600;
    std::size_t horizon = 100;    // runs read back to find the reference (reference.hpp)
    // The machines rule (docs/gate.md, "Machines") reads the other machines' runs of the last this
    // many days before the judged run's date: a level measured months ago, under another driver or
    // another build of the runtime, is no centre for today's (0: every run, however old).
    long machines_window_days = 90;
    ReferenceRule reference;      // which runs form the reference level
    // The suite's error budget (docs/gate.md, "Error budget"): the decisions of one suite run
    // (`family`) share the thresholds' alpha, and this one gets alpha * alpha_share. 1, 1: this
    // decision alone.
    std::size_t family = 1;
    double alpha_share = 1.0;
    double power = 0.95;          // behind the minimum detectable effect that every verdict states
};

// Compares the current run (its samples; `current_launches` rows, reruns included) with the pair's
// reference level (reference.hpp) on the between-run spread of the latest rule.noise_runs runs of
// `history` (oldest first, up to rule.horizon runs), pooled within the reference's segments.
// Regressed only when the change is beyond the metric's floor (max_drop) and beyond the one-sided
// (1 - alpha) bound of that spread; beyond the floor only is inconclusive. With fewer than
// `min_runs` runs the fallback rule assumes the threshold's run_noise (or the history's own, if
// larger) and, when both sides have repetitions (`reference_samples`: the reference runs'), also
// needs the within-run test `within` to agree.
MetricCheck decide_metric_history(const std::string& metric, const std::vector<RunLevel>& history,
                                  const Reference& reference, const std::vector<double>& reference_samples,
                                  const std::vector<double>& current, std::size_t current_launches,
                                  const Threshold& threshold, StatTest within, const HistoryRule& rule);

// The same with the reference found from `history` alone (no acknowledgements).
MetricCheck decide_metric_history(const std::string& metric, const std::vector<RunLevel>& history,
                                  const std::vector<double>& reference_samples, const std::vector<double>& current,
                                  std::size_t current_launches, const Threshold& threshold, StatTest within,
                                  const HistoryRule& rule);

// A run on a machine the pair's history has not seen, when the history holds enough other machines
// (machine_spread.hpp, docs/gate.md "Machines"): judged against the centre of their levels, with
// the spread of where an unchanged run of a new machine lands (Student's t, machines - 1 degrees of
// freedom), the floor and the suite's error budget as in the history rule. MetricCheck::test is
// "machines".
MetricCheck decide_metric_across_machines(const std::string& metric, const MachineSpread& spread,
                                          const std::vector<double>& current, const Threshold& threshold,
                                          const HistoryRule& rule);

}  // namespace perfgate::gates
