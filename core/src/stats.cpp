#include "perfgate/core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace perfgate {
namespace {

void require_usable(const std::vector<double>& values, const char* what) {
    if (values.empty()) throw std::invalid_argument(std::string(what) + " of no values");
    for (double v : values)
        if (!std::isfinite(v)) throw std::invalid_argument(std::string(what) + ": a non-finite sample reached the statistics");
}

}  // namespace

double median(std::vector<double> values) {
    require_usable(values, "median");
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<long>(mid), values.end());
    const double upper = values[mid];
    if (values.size() % 2 == 1) return upper;
    const double lower = *std::max_element(values.begin(), values.begin() + static_cast<long>(mid));
    return lower / 2.0 + upper / 2.0;  // (lower + upper) / 2 overflows for readings near DBL_MAX
}

double mean(const std::vector<double>& values) {
    require_usable(values, "mean");
    const double n = static_cast<double>(values.size());
    const double sum = std::accumulate(values.begin(), values.end(), 0.0);
    if (std::isfinite(sum)) return sum / n;
    double m = 0;
    for (double v : values) m += v / n;  // huge readings: divided first, so the sum stays finite
    return m;
}

double quantile(std::vector<double> values, double p) {
    require_usable(values, "quantile");
    if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("quantile: p outside [0, 1]");
    std::sort(values.begin(), values.end());
    const double rank = p * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(rank));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    const double fraction = rank - static_cast<double>(below);
    return values[below] + fraction * (values[above] - values[below]);
}

}  // namespace perfgate
