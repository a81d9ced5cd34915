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
    std::string when;         // timestamp, else date: the chronological order (the run's last row)
    double value = 0;         // median of the run's samples
    std::size_t launches = 0; // rows of the run (a pair rerun inside a run adds one)
    std::string start;        // the earliest timestamp of its rows; empty when they have none
    std::string machine;      // machine_id of its rows (empty: not recorded)
    // Which session it belongs to (assign_sessions); none: a session of its own.
    std::optional<std::size_t> session;
};

// Whether two runs belong to one session.
bool same_session(const RunLevel& a, const RunLevel& b);

// The runs of `group` that measured `metric` (ok rows only), oldest first, as core's
// group_into_runs groups them (row_runs.hpp: rows sharing a non-empty run_id are one run; a row
// without one, mlxcel's, is a run of its own), the rule the page's history uses too.
std::vector<RunLevel> run_levels(const SampleGroup& group, const std::string& metric);

// Sessions (docs/gate.md, "Sessions"): runs of one machine started less than `gap` after the
// previous run ended share the machine's state of that moment (its clocks, its neighbours, what
// its caches hold), so they are one piece of evidence about the next run, not several: six runs
// taken within 71 seconds read a spread of 0.8% where the next day's run on the same machine
// landed 18% lower. Numbers the runs' sessions in order (RunLevel::session, oldest first): a run
// joins the previous run's session when both carry timestamps, the same machine, and it started
// within `gap_seconds` of the previous run's end. A run without timestamps (mlxcel's rows, dates
// only) is a session of its own.
void assign_sessions(std::vector<RunLevel>& runs, long long gap_seconds);

// The spread of runs grouped in sessions, as variance components on the log scale, pooled within
// segments (`starts` as in between_run_sigma; a segment start also ends a session):
struct SessionSpread {
    double between = 0;        // of a session's own level about the pair's (the session effect)
    double within = 0;         // of one run about its session's level (0 when no session has 2 runs)
    std::size_t sessions = 0;  // the independent pieces of evidence
    std::size_t df = 0;        // sessions - segments: the degrees of freedom of `between`
    // One session set aside (outlying_session): the first run of it, and its level over the rest
    // of its segment's (9.0: ten times their level); empty when none was. `sessions` and `df`
    // count without it.
    std::string set_aside_run;
    double set_aside_ratio = 0;
    // Where one run of a new session lands about the pair's level.
    double one_run() const;
};
// One poisoned session (a run of another build, a machine that was swapping) would otherwise be the
// spread: ten sessions within 1% and one at ten times their level read a spread of about 70%, and a
// 60% drop passed as inconclusive. So the session furthest from the rest of its segment is set
// aside when a test of it against the others' own spread says it is not one of them (its
// externally studentized deviation beyond Student's t at 1% over all sessions, Bonferroni; at least
// kMinSessionsForOutlier sessions). Under normal noise that sets aside a session in at most 1% of
// histories; only one is ever set aside, so a pair whose sessions are often far off keeps a wide
// spread (docs/gate.md, "Noise").
// nullopt for no runs or a non-positive level; with fewer than 2 degrees of freedom between sessions,
// between is 0 and df 0 (within may still be measured). With every run a session of its own,
// between is between_run_sigma's spread and within 0.
std::optional<SessionSpread> session_spread(const std::vector<RunLevel>& runs, const std::vector<std::size_t>& starts);

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
