#pragma once
// Five-number summary of readings (samples of one metric, or ratios across models). The median is
// the gate's (gates::median); quartiles interpolate linearly between order statistics
// (q = x[(n-1)p], the "type 7" rule), so one reading gives min = q1 = median = q3 = max.
#include <cstddef>
#include <optional>
#include <vector>

namespace perfgate::report {

struct Spread {
    std::size_t n = 0;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
};

// nullopt for no values.
std::optional<Spread> spread_of(std::vector<double> values);

// The p-quantile (0..1) of sorted, non-empty values by linear interpolation.
double quantile_sorted(const std::vector<double>& sorted, double p);

}  // namespace perfgate::report
