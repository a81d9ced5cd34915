#pragma once
// The gate's entry points: on result files (perfgate gate) and on in-memory rows (the runner).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"
#include "perfgate/gates/decision.hpp"
#include "perfgate/gates/report.hpp"
#include "perfgate/gates/statistics.hpp"

namespace perfgate::gates {

struct GateOptions {
    std::vector<std::string> results;           // result CSVs to judge
    std::optional<std::string> baseline;        // overrides baseline selection
    std::string benchmarks_dir = "benchmarks";  // history of earlier result CSVs
    // This machine's own earlier results, kept apart from the reviewed history (a build folder's
    // results, docs/runner.md): read as history beside benchmarks_dir, so a second run on a new
    // machine is judged against its first, and said so in a note. Never read at a base ref (a pull
    // request is judged by reviewed baselines only). Empty: none.
    std::string local_history_dir;
    std::string thresholds_dir = "thresholds";
    std::optional<std::string> baseline_ref;    // read benchmarks/ and thresholds/ at this git ref
    // Pull-request guard (docs/gate.md): with baseline_ref, a pair that was ok in the baseline and
    // is missing or skipped now fails the gate, so a change cannot drop a pair from its own gate
    // by renaming it in the suite or inflating weight_gb. It passes only when the suite as it is
    // at the ref does not run the pair either: these are that suite's (runtime, model) pairs. Unset:
    // the suite at the ref is unknown, and nothing excuses such a pair.
    std::optional<std::set<std::pair<std::string, std::string>>> pairs_at_ref;
    // With baseline_ref: (runtime, model) pairs whose workload in the suite differs from the suite
    // at the ref, with what changed ("generated_tokens 128 -> 127"); each such pair fails.
    std::map<std::pair<std::string, std::string>, std::string> workload_changes;
    std::optional<std::string> catalog;         // model alias catalog (TSV)
    double prompt_tolerance = 0.10;             // relative prompt-length difference allowed
    long max_date_gap_days = 1;                 // cross-runtime comparisons: calendar days apart
    std::string host;                           // host tag override (rows and file names otherwise)
    StatTest test = StatTest::welch_t;          // the within-run test of the fallback rule
    HistoryRule history_rule;                   // min_runs, noise_runs (K), horizon, reference, power
    // The suite's error budget: how many noise-limited decisions one run of the suite makes (its
    // pairs times their metrics), when the gate sees only part of it (a pair's own gate). The gate
    // uses the larger of this and the decisions it makes itself; history_rule.family is set from it.
    std::size_t family_size = 0;
    bool report_missing = true;                 // list baseline pairs not run now
    EmptyRun empty_run = EmptyRun::fail;        // a run that compared nothing fails (report.hpp)
    // Rows of this run (the run_id column) are never part of a baseline: a perf pair test gates
    // its row after appending it to the day's file, which may hold an earlier run of the same day.
    std::string exclude_run_id;
};

// Bad input (unreadable CSV, invalid thresholds, an invalid host tag or date, git failure) is an
// Error: exit code 2. A bug that throws inside the gate is an Error too ("internal error"), never
// an abort.
Expected<GateReport> run_gate(const GateOptions& options);

// Gates rows that are not (yet) in a file, e.g. the rows one perf pair test just measured.
// `options.results` is ignored; `report_missing` is usually false here.
Expected<GateReport> gate_rows(const std::vector<ResultRow>& current, const GateOptions& options);

}  // namespace perfgate::gates
