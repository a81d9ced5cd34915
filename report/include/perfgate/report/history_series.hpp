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
    std::string run_id;       // one point per run: a file holding several runs gives several points
    std::string timestamp;    // of the run's first row (ISO 8601 UTC), else empty
    std::string flags;        // the run's runtime flags: runs with other flags are another series
    double decode_tok_s = 0;  // the run's median
    std::string source;  // file name
};

struct History {
    std::vector<HistoryPoint> points;     // sorted by model, runtime, date
    std::vector<std::string> files_read;
    std::vector<std::string> skipped;     // "<file>: <why>" (unreadable files are noted, not fatal)
};

// Points for the models of `data` (ok rows; median decode per run: file, run_id, model and runtime). The page's
// own result files count as history too (read once even when they sit in `dir`).
History collect_history(const std::string& dir, const ReportData& data);

}  // namespace perfgate::report
