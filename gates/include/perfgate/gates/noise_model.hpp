#pragma once
// The noise model of the gate (docs/gate.md, "Decision"): the unit of evidence is a run — one
// run_id of a perfgate file, one row of an mlxcel file — summarised by the median of its samples.
// Repetitions inside one run share the process, the clocks and the minute, so they understate how
// far the next run lands; the spread that decides is the one between runs, read off the pair's own
// history on that host.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/row_runs.hpp"
#include "perfgate/gates/samples.hpp"

namespace perfgate::gates {

// One run of one pair, one metric.
struct RunLevel {
    std::string run;          // run_key (core/row_runs.hpp): run_id, or file:line for a row without one
    std::string when;         // timestamp, else date: the chronological order
    double value = 0;         // median of the run's samples
    std::size_t launches = 0; // rows of the run (a pair rerun inside a run adds one)
};

// The runs of `group` that measured `metric` (ok rows only), oldest first, as core's
// group_into_runs groups them (row_runs.hpp: rows sharing a non-empty run_id are one run; a row
// without one, mlxcel's, is a run of its own), the rule the page's history uses too.
std::vector<RunLevel> run_levels(const SampleGroup& group, const std::string& metric);

// The samples of `metric` of one run of `group` (run as in RunLevel::run).
std::vector<double> run_samples(const SampleGroup& group, const std::string& metric, const std::string& run);

// Relative between-run spread: the standard deviation of the log of run levels; nullopt with
// fewer than 3 runs or a non-positive level.
std::optional<double> between_run_sigma(const std::vector<double>& levels);

// The same spread pooled within segments (`starts`: the first index of each segment after the
// first, ascending): each run's deviation from its own segment's mean, over (runs - segments)
// degrees of freedom, the ones the history rule's Student's t uses. An accepted step between
// segments is a change, not noise. nullopt with fewer than 2 degrees of freedom or a non-positive
// level. With no starts it equals between_run_sigma.
std::optional<double> between_run_sigma(const std::vector<double>& levels, const std::vector<std::size_t>& starts);

// The segments the spread is pooled within: `starts` (acknowledged steps, ascending) and the steps
// the change-point scan (change_points.hpp) finds inside each of them. A step is a change, not
// noise, whether accepted or not: a slowdown left in the history (main records a failed run too)
// would otherwise widen the spread until the same slowdown passed. One odd run is not a step (a
// step needs 2 runs on each side), so a heavy tail still shows in the spread.
std::vector<std::size_t> noise_segments(const std::vector<double>& levels, const std::vector<std::size_t>& starts);

}  // namespace perfgate::gates
