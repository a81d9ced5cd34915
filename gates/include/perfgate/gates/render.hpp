#pragma once
// One exporter per output format.
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/gates/report.hpp"

namespace perfgate::gates {

enum class ReportFormat { text, markdown, junit, json };
std::optional<ReportFormat> report_format_from_string(std::string_view name);

std::string render_text(const GateReport& report);      // console table, worst first
std::string render_markdown(const GateReport& report);  // pull-request comment / $GITHUB_STEP_SUMMARY
std::string render_junit(const GateReport& report);     // one testcase per pair and metric
std::string render_json(const GateReport& report);
std::string render(const GateReport& report, ReportFormat format);

}  // namespace perfgate::gates
