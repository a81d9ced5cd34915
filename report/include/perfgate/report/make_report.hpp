#pragma once
// `perfgate report` as a library call: read the CSVs, compare, draw the charts, write the page.
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/report/charts.hpp"
#include "perfgate/report/relative_gate.hpp"

namespace perfgate::report {

struct ReportOptions {
    std::vector<std::string> results;   // result CSVs
    std::string output;                 // docs/benchmark_results/<backend>_<host>_<date>.md
    std::string history_dir;            // empty: no history charts
    std::string thresholds_dir = "thresholds";
    std::string note;                   // operator note on contention
    std::optional<std::string> compare; // "A:B"
    std::optional<double> min_ratio;
    long max_date_gap_days = 1;
    ChartOptions charts;
    std::string command_line;           // how the page was made, for "How to reproduce"
};

struct ReportOutcome {
    std::string page_path;
    std::vector<std::string> chart_files;
    std::string summary;  // a few lines for the console (comparison verdict, chart status)
    RelativeGate relative_gate = RelativeGate::none;  // of --min-ratio
};

// Bad input (unreadable CSV, unknown runtime in --compare, invalid thresholds JSON) is an Error.
Expected<ReportOutcome> make_report(const ReportOptions& options);

}  // namespace perfgate::report
