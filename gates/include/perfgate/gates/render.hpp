#pragma once
// One exporter per output format. Data in the report (model names, hosts, reasons) passes through
// the format's escaping of perfgate/core/escape.hpp: it comes from CSVs a pull request controls.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/gates/report.hpp"

namespace perfgate::gates {

enum class ReportFormat { text, markdown, junit, json };
std::optional<ReportFormat> report_format_from_string(std::string_view name);

// How the console table looks: colour (the caller decides, perfgate/core/console.hpp) and the
// width no line may exceed (a pair name longer than its column gets a line of its own).
struct TextStyle {
    bool color = false;
    std::size_t width = 120;
    bool notes = true;  // the run's notes; off where a later summary states them once (a pair's test)
    // Every pair a row of its own. Off (perfgate gate's and compare's default; --show all turns it
    // on): pairs missing, new or skipped as before are counted in one line each, with their names
    // as far as the line reaches, so the verdict fits a screen (a single-model mlxcel file against
    // its full sweep: 425 lines, 198 of them missing pairs).
    bool show_all = true;
};

std::string render_text(const GateReport& report, const TextStyle& style = {});  // one row per pair, worst first
std::string render_markdown(const GateReport& report);  // pull-request comment / $GITHUB_STEP_SUMMARY
std::string render_junit(const GateReport& report);     // one testcase per pair and metric
std::string render_json(const GateReport& report);
std::string render(const GateReport& report, ReportFormat format, const TextStyle& style = {});


}  // namespace perfgate::gates
