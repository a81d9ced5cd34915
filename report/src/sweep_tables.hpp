#pragma once
// The page's results of a sweep (sweep_series.hpp) as one table over the swept setting: a row per
// point, a column per metric the points recorded. A sweep's points are not runtimes to compare
// side by side, and as columns of the results table they made it dozens of columns wide.
#include <string>
#include <vector>

#include "sweep_series.hpp"

namespace perfgate::report {

// "llama-server (concurrency 1, 8)": how a page's title names a sweep.
std::string sweep_title(const SweepSeries& sweep);

// The markdown of every sweep's table, or empty for none.
std::string sweep_tables(const std::vector<SweepSeries>& sweeps);

}  // namespace perfgate::report
