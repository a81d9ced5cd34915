#pragma once
// The history of the page's models on its host: every CSV in the history folder named
// <backend|runtime>_<host>[_vlm]_<date>[_suffix].csv for that host and harness.
#include <string>
#include <vector>

#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

struct HistoryPoint {
    std::size_t line = 0;  // index into ReportData::lines
    std::string model, runtime, date;
    // One point per run, named as core's run_key names it (its run_id, else the row's file:line):
    // a file holding several runs gives several points, and the gate's history has the same runs.
    std::string run;
    std::string timestamp;    // of the run's first row (ISO 8601 UTC), else empty
    std::string flags;        // the run's runtime flags: runs with other flags are another series
    std::string machine;      // the run's machine_id (empty: not recorded), so charts tell machines apart
    double decode_tok_s = 0;  // the run's median
    std::string source;  // file name
};

struct History {
    std::vector<HistoryPoint> points;     // sorted by model, runtime, date
    std::vector<std::string> files_read;
    std::vector<std::string> skipped;     // "<file>: <why>" (unreadable files are noted, not fatal)
};

// Points for the models of `data` (ok rows; median decode per run, runs as group_into_runs makes them). The page's
// own result files count as history too (read once even when they sit in `dir`).
History collect_history(const std::string& dir, const ReportData& data);

}  // namespace perfgate::report
