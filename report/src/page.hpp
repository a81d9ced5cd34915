#pragma once
// The markdown page of `perfgate report`.
#include <optional>
#include <string>

#include "perfgate/report/charts.hpp"
#include "comparison.hpp"
#include "environment.hpp"
#include "history_verdict.hpp"
#include "roofline.hpp"

namespace perfgate::report {

struct PageInputs {
    const ReportData* data = nullptr;
    std::optional<Comparison> comparison;
    std::optional<Bandwidth> bandwidth;
    std::string bandwidth_note;     // why the bandwidth is unknown
    std::string operator_note;
    ChartOutcome charts;
    std::string reproduce_command;  // the perfgate report command line that made the page
    History history;
    HistoryVerdicts verdicts;       // the gate's, against the history folder
};

std::string render_page(const PageInputs& in);

}  // namespace perfgate::report
