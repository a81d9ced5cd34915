#pragma once
// perfgate history (docs/gate.md, "Change points: perfgate history"): the change points of every
// pair's history in a benchmarks folder. The gate sees one run against a reference; a slowdown
// that got merged anyway, or arrived in steps each below the floor, stays in the history as a
// lasting step. This scan lists those steps with their size, the first run and commit after each,
// and whether an acknowledgement (acknowledgements.hpp) accepted it, so main's job can fail on a
// step nobody accepted.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/acknowledgements.hpp"
#include "perfgate/gates/change_points.hpp"
#include "perfgate/gates/noise_model.hpp"

namespace perfgate::gates {

struct HistoryScanOptions {
    std::string host;                  // only this host tag; empty: every host tag in the folder
    ChangePointOptions change_points;  // alpha, minimum segment (in sessions)
    // Runs of one machine less than this apart are one session, the scan's unit (assign_sessions,
    // noise_model.hpp; the gate's --session-gap); 0: every run is one.
    long long session_gap_s = 600;
    // Folder of the thresholds (default.json, <host_tag>.json): when given, a series' steps must be
    // at least half its pair's floor (max_drop) to count, and a step below the floor itself is
    // listed but never fails --check. Empty: every significant step counts.
    std::string thresholds_dir;
};

// One run as the report names it.
struct HistoryRun {
    std::string run;     // run_id, or file:line for a row without one
    std::string when;    // timestamp, else date
    std::string commit;  // runtime_commit of its rows; empty when they have none
};

struct HistoryStep {
    std::string host, machine, runtime, model, metric;  // machine: machine_id, or "unknown"
    std::size_t runs = 0;                               // runs in the pair's series
    std::size_t sessions = 0;                           // its sessions: the units the scan tested
    std::size_t series = 0;                             // which series of the scan (1, 2, ...)
    ChangePoint step;
    bool worse = false;          // in the metric's own sense: a rate that drops, memory that rises
    bool negligible = false;     // smaller than the metric's negligible_change (a few MiB): never fails --check
    bool below_floor = false;    // smaller than the pair's floor (HistoryScanOptions::thresholds_dir): never fails --check
    HistoryRun last_before, first_after;
    std::string acknowledged_by;  // "<file>:<line>" of the entry that covers the step; empty: none
};

struct HistoryScan {
    std::vector<HistoryStep> steps;  // by host, machine, pair, metric, then run
    std::size_t series = 0;          // pair-metric series with runs
    std::size_t tested = 0;          // long enough to hold a step (2 x min_segment sessions)
    std::size_t with_steps = 0;      // series with at least one step (after Benjamini-Hochberg)
    std::size_t set_aside_by_fdr = 0;  // series whose significant steps Benjamini-Hochberg set aside
    std::size_t hosts = 0, machines = 0;
    ChangePointOptions options;
    long long session_gap_s = 600;
};

// Reads every result CSV of `benchmarks_dir` (as calibrate --from-history does), one series per
// host, machine, pair and registered metric, and finds its steps. A worsening step is covered by an
// acknowledgement of its pair and metric whose "from" is after the last run before the step and no
// later than the first run after it (timestamps, else dates, compared as strings, as the entries'
// "from" is defined). Errors name the folder, or the file and line.
Expected<HistoryScan> scan_history(const std::string& benchmarks_dir, const Acknowledgements& acknowledgements,
                                   const HistoryScanOptions& options);

// One pair's runs of one registered metric on one host tag, every machine's runs together (each
// RunLevel names its machine), oldest first: what a page draws (perfgate site). The same reader as
// the scan and calibrate --from-history, but runs under earlier runtime flags, which the gate's
// history drops (another method), are kept as series of their own.
struct HistorySeries {
    std::string host, runtime, model, metric;
    std::string flags;  // the runtime flags of its runs
    std::vector<RunLevel> runs;
    std::map<std::string, std::string> commit_of_run;  // RunLevel::run -> runtime_commit of its rows
};
Expected<std::vector<HistorySeries>> read_history_series(const std::string& benchmarks_dir);

// The result files of `benchmarks_dir` whose names carry host tag `host`, oldest first: the files
// the scan, calibrate and read_history_series read for that host. Errors name the folder.
Expected<std::vector<std::string>> host_result_files(const std::string& benchmarks_dir, const std::string& host);

// `<thresholds_dir>/acknowledgements.json`; an absent file is no acknowledgement. Errors name the
// file and line.
Expected<Acknowledgements> read_acknowledgements(const std::string& thresholds_dir);

// The worsening steps, negligible ones aside, that no acknowledgement covers: what
// `perfgate history --check` fails on.
std::vector<const HistoryStep*> unacknowledged_worsening(const HistoryScan& scan);

// One block per pair and metric with steps, then a count of the series without one.
std::string render_history_text(const HistoryScan& scan);
// The same as a JSON document (options, counts, steps).
std::string render_history_json(const HistoryScan& scan);
// What --check says when it fails: each uncovered step, and how to acknowledge one.
std::string render_history_check(const std::vector<const HistoryStep*>& uncovered, const std::string& thresholds_dir);

}  // namespace perfgate::gates
