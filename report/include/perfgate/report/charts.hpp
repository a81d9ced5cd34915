#pragma once
// The page's SVG charts, drawn by gnuplot beside the page: decode and prefill tok/s per model per
// runtime (bars with the sample range), each sweep's figures over its setting, and the history of
// each model on this host.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/gates/thresholds.hpp"

#include "perfgate/report/history_series.hpp"
#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

struct ChartOptions {
    bool enabled = true;          // false: --no-charts
    std::string search_path;      // where to look for gnuplot; empty: $PATH
    // The host's thresholds: a history chart shades each runtime's gate floor below its latest run.
    std::optional<gates::ThresholdSet> thresholds;
};

struct ChartImage {
    std::string title;
    std::string file;             // file name, beside the page
};

// A chart of more lines than this shows nothing legible and costs gnuplot a minute (a bar chart of
// 200,000 models is a 190 MB SVG); larger pages keep their numbers in the tables only.
inline constexpr std::size_t kMaxBarChartLines = 200;
// History charts are one gnuplot run each; at most this many, for the first lines of the page.
inline constexpr std::size_t kMaxHistoryCharts = 100;

struct ChartOutcome {
    std::vector<ChartImage> images;
    std::string not_drawn;              // why no chart was drawn at all (empty when some were)
    std::vector<std::string> failures;  // charts gnuplot failed on, with its message
    std::vector<std::string> omitted;   // charts left out because the page is too large for them
};

// Writes <stem>_decode.svg, <stem>_prefill.svg, for each sweep of two or more points
// <stem>_sweep_<n>_<runtime>-<model>.svg and, for each model measured on two or more dates,
// <stem>_history_<n>_<model>.svg into `dir`.
ChartOutcome draw_charts(const ReportData& data, const History& history, const std::string& dir,
                         const std::string& stem, const ChartOptions& options);

// The gnuplot script and data of the per-model bar chart of `metric` ("decode_tok_s" or
// "prefill_tok_s"), exposed for tests of escaping. Labels are gnuplot_string()s.
struct GnuplotJob {
    std::string script;
    std::string data;
};
GnuplotJob bar_chart_job(const ReportData& data, const std::string& metric, const std::string& data_file,
                         const std::string& svg_file);

}  // namespace perfgate::report
