#include "perfgate/report/spread.hpp"

#include <algorithm>
#include <cmath>

#include "perfgate/gates/statistics.hpp"

namespace perfgate::report {

double quantile_sorted(const std::vector<double>& sorted, double p) {
    const double pos = static_cast<double>(sorted.size() - 1) * p;
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double frac = pos - static_cast<double>(lo);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

std::optional<Spread> spread_of(std::vector<double> values) {
    if (values.empty()) return std::nullopt;
    std::sort(values.begin(), values.end());
    Spread s;
    s.n = values.size();
    s.min = values.front();
    s.max = values.back();
    s.q1 = quantile_sorted(values, 0.25);
    s.q3 = quantile_sorted(values, 0.75);
    s.median = gates::median(values);
    return s;
}

}  // namespace perfgate::report
