#pragma once
// The page's sweeps (a suite runtime's "sweep", docs/serving.md "Sweeps"): the points of one
// entry on one model, each point a runtime of the page whose rows carry perfgate's sweep mark
// (core/method_marks.hpp). The results table shows a sweep as one table over its setting and the
// charts draw it as one chart (sweep_chart.hpp), instead of one column per point.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "perfgate/core/method_marks.hpp"
#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

struct SweepSeries {
    std::string entry;  // the swept runtime entry
    std::string model;
    SweepAxis axis = SweepAxis::concurrency;
    // Swept value -> the point's runtime (e.g. llama-server-c8) and its cell on the page.
    std::map<std::int64_t, std::string> runtime_of;
    std::map<std::int64_t, const RuntimeCell*> cell_of;
    // Registered metric key -> swept value -> median of the point's ok samples (recorded unit).
    std::map<std::string, std::map<std::int64_t, double>> medians;
    std::size_t points() const;  // distinct swept values with a figure
};

// The page's sweeps with at least two points, in the order of their first rows.
std::vector<SweepSeries> sweep_series(const ReportData& data);

// The runtimes of the page that are points of those sweeps.
std::set<std::string> sweep_point_runtimes(const std::vector<SweepSeries>& sweeps);

}  // namespace perfgate::report
