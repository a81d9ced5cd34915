#pragma once
// One chart per sweep (a suite runtime's "sweep", docs/serving.md "Sweeps"): the figures of a
// model's points, each sweep point a row with perfgate's sweep mark in its flags
// (core/method_marks.hpp), drawn over the swept setting, one panel per unit (tok/s, req/s, ms).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "perfgate/core/method_marks.hpp"
#include "perfgate/report/charts.hpp"
#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

struct SweepSeries {
    std::string entry;  // the swept runtime entry
    std::string model;
    SweepAxis axis = SweepAxis::concurrency;
    // Registered metric key -> swept value -> median of the point's ok samples (recorded unit).
    std::map<std::string, std::map<std::int64_t, double>> medians;
    std::size_t points() const;  // distinct swept values with a figure
};

// The page's sweeps with at least two points, in the order of their first rows.
std::vector<SweepSeries> sweep_series(const ReportData& data);

GnuplotJob sweep_chart_job(const SweepSeries& sweep, const std::string& data_file, const std::string& svg_file);

}  // namespace perfgate::report
