#pragma once
// Rounding for the numbers calibration writes into files people read and diff.
#include <cmath>

namespace perfgate::gates::detail {

// x to `digits` decimal places.
inline double round_to(double x, int digits) {
    const double f = std::pow(10.0, digits);
    return std::round(x * f) / f;
}

}  // namespace perfgate::gates::detail
