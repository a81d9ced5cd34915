#pragma once
// The gate's verdict on the page's results against their history: the judgment `perfgate gate`
// makes on the same files, shown on the page (docs/report.md, "Verdict against history"). The page
// judges nothing itself; it shows gates' verdicts in gates' words.
#include <optional>
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/report.hpp"
#include "perfgate/report/make_report.hpp"
#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

// What the page knows of the gate's verdict: nothing without a history folder (nullopt), the gate's
// report, or why the gate would not judge (input it refuses, such as a history CSV it cannot read;
// the page still says so rather than failing, as it does for the history charts).
using HistoryVerdicts = std::optional<Expected<gates::GateReport>>;

// The gate on the page's latest run (of `data`, the page's result files as read): its rows are the
// current ones and every earlier run, the history folder's and the page's own files', is history
// (docs/report.md, "Verdict against history"); the gate's defaults for everything else.
HistoryVerdicts judge_against_history(const ReportOptions& options, const ReportData& data);

// The section "## Verdict against history".
void render_history_verdicts(std::string& page, const HistoryVerdicts& verdicts);

// One line for the console: whether that gate would pass, and its verdict counts.
std::string history_verdict_summary(const HistoryVerdicts& verdicts);

}  // namespace perfgate::report
