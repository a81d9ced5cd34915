#pragma once
// How a page's tables of figures (a sweep's points, the servers) show one cell's metric.
#include <string>

#include "perfgate/core/metric.hpp"
#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

// The median in the metric's display unit, with the range of the samples and their count when
// there are several; "-" when the cell has no such figure.
std::string figure_cell_text(const RuntimeCell& cell, const Metric& m);

}  // namespace perfgate::report
