#pragma once
// One chart per sweep (a suite runtime's "sweep", docs/serving.md "Sweeps"): the figures of a
// model's points, each sweep point a row with perfgate's sweep mark in its flags
// (core/method_marks.hpp), drawn over the swept setting, one panel per unit (tok/s, req/s, ms).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "perfgate/report/charts.hpp"
#include "sweep_series.hpp"

namespace perfgate::report {

GnuplotJob sweep_chart_job(const SweepSeries& sweep, const std::string& data_file, const std::string& svg_file);

}  // namespace perfgate::report
