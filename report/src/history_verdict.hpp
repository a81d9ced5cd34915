#pragma once
// The gate's verdict on the page's results against their history: the judgment `perfgate gate`
// makes on the same files, shown on the page (docs/report.md, "Verdict against history"). The page
// judges nothing itself; it shows gates' verdicts in gates' words.
#include <optional>
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/report.hpp"
#include "perfgate/report/make_report.hpp"

namespace perfgate::report {

// What the page knows of the gate's verdict: nothing without a history folder (nullopt), the gate's
// report, or why the gate would not judge (input it refuses, such as a history CSV it cannot read;
// the page still says so rather than failing, as it does for the history charts).
using HistoryVerdicts = std::optional<Expected<gates::GateReport>>;

// `perfgate gate --results <the page's CSVs> --benchmarks-dir <history_dir> --thresholds-dir
// <thresholds_dir>` with the gate's defaults for everything else.
HistoryVerdicts judge_against_history(const ReportOptions& options);

// The section "## Verdict against history".
void render_history_verdicts(std::string& page, const HistoryVerdicts& verdicts);

// One line for the console: whether that gate would pass, and its verdict counts.
std::string history_verdict_summary(const HistoryVerdicts& verdicts);

}  // namespace perfgate::report
