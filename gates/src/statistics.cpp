#include "perfgate/gates/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

namespace perfgate::gates {

const char* to_string(StatTest test) {
    return test == StatTest::welch_t ? "welch-t" : "mann-whitney-u";
}

std::optional<StatTest> stat_test_from_string(std::string_view name) {
    if (name == "welch-t" || name == "welch") return StatTest::welch_t;
    if (name == "mann-whitney-u" || name == "mann-whitney") return StatTest::mann_whitney_u;
    return std::nullopt;
}

namespace {

// Readings are finite by the time they get here: the CSV reader and the recorder refuse NaN and
// infinity (perfgate/core/measure_rules.hpp). One arriving anyway is a bug upstream, reported as a
// std::invalid_argument that the gate turns into an error message, never an abort inside Boost.
void require_finite(const std::vector<double>& values, const char* where) {
    for (double v : values)
        if (!std::isfinite(v)) throw std::invalid_argument(std::string(where) + ": a non-finite sample reached the statistics");
}

// The largest magnitude, for scaling: the t statistic is scale-free, and dividing by it keeps sums
// of squares of huge (finite) readings such as 1e308 from overflowing to infinity.
double largest_magnitude(const std::vector<double>& a, const std::vector<double>& b) {
    double m = 0;
    for (double v : a) m = std::max(m, std::fabs(v));
    for (double v : b) m = std::max(m, std::fabs(v));
    return m;
}

std::vector<double> scaled(const std::vector<double>& v, double by) {
    std::vector<double> out(v);
    for (double& x : out) x /= by;
    return out;
}

}  // namespace

namespace {

double sample_variance(const std::vector<double>& v, double m) {
    double ss = 0;
    for (double x : v) ss += (x - m) * (x - m);
    return ss / static_cast<double>(v.size() - 1);
}

// Number of orderings of m "lower" and n "higher" values giving each U (pairs lower > higher),
// by the recursion on which group holds the largest value.
std::vector<double> exact_u_counts(std::size_t m, std::size_t n) {
    // table[i][j] = counts for sizes (i, j); only two rows of i are kept.
    const std::size_t max_u = m * n;
    std::vector<std::vector<double>> prev(n + 1), cur(n + 1);
    for (std::size_t j = 0; j <= n; ++j) prev[j] = std::vector<double>(1, 1.0);  // i = 0: U = 0 only
    for (std::size_t i = 1; i <= m; ++i) {
        cur[0] = std::vector<double>(1, 1.0);
        for (std::size_t j = 1; j <= n; ++j) {
            std::vector<double> counts(i * j + 1, 0.0);
            // Largest value in "lower" group: it exceeds all j higher values -> U shifts by j.
            for (std::size_t u = 0; u < prev[j].size(); ++u) counts[u + j] += prev[j][u];
            // Largest value in "higher" group: contributes nothing.
            for (std::size_t u = 0; u < cur[j - 1].size(); ++u) counts[u] += cur[j - 1][u];
            cur[j] = std::move(counts);
        }
        std::swap(prev, cur);
    }
    auto out = prev[n];
    out.resize(max_u + 1, 0.0);
    return out;
}

}  // namespace

std::optional<double> welch_p_lower(const std::vector<double>& raw_lower, const std::vector<double>& raw_higher) {
    if (raw_lower.size() < 2 || raw_higher.size() < 2) return std::nullopt;
    require_finite(raw_lower, "welch_p_lower");
    require_finite(raw_higher, "welch_p_lower");
    // Only huge readings are rescaled, so ordinary ones give bit-for-bit the same p as before.
    const double largest = largest_magnitude(raw_lower, raw_higher);
    const double scale = largest > 1e50 ? largest : 1.0;
    const auto lower = scaled(raw_lower, scale), higher = scaled(raw_higher, scale);
    const double m1 = mean(lower), m2 = mean(higher);
    const double n1 = static_cast<double>(lower.size()), n2 = static_cast<double>(higher.size());
    const double a = sample_variance(lower, m1) / n1, b = sample_variance(higher, m2) / n2;
    if (a + b <= 0) return std::nullopt;
    const double t = (m1 - m2) / std::sqrt(a + b);
    const double df = (a + b) * (a + b) / (a * a / (n1 - 1) + b * b / (n2 - 1));
    // Tiny spreads can underflow the denominator; Boost refuses a NaN or non-positive df or t by
    // throwing, so those cases get the normal limit or no test instead.
    if (!std::isfinite(t)) return std::nullopt;
    if (std::isnan(df) || df <= 0) return std::nullopt;
    if (std::isinf(df)) return boost::math::cdf(boost::math::normal(), t);
    boost::math::students_t dist(df);
    return boost::math::cdf(dist, t);
}

std::optional<double> mann_whitney_p_lower(const std::vector<double>& lower, const std::vector<double>& higher) {
    if (lower.empty() || higher.empty()) return std::nullopt;
    require_finite(lower, "mann_whitney_p_lower");
    require_finite(higher, "mann_whitney_p_lower");
    const std::size_t m = lower.size(), n = higher.size();
    // U = number of pairs where the "lower" value exceeds the "higher" one, ties counting half.
    double u = 0;
    bool ties = false;
    for (double x : lower)
        for (double y : higher) {
            if (x > y) u += 1;
            else if (x == y) u += 0.5, ties = true;
        }
    if (!ties && m * n <= 2500) {
        auto counts = exact_u_counts(m, n);
        double total = std::accumulate(counts.begin(), counts.end(), 0.0);
        double below = 0;
        for (std::size_t k = 0; k <= static_cast<std::size_t>(u) && k < counts.size(); ++k) below += counts[k];
        return below / total;
    }
    // Normal approximation with tie correction of the variance.
    std::vector<double> all(lower);
    all.insert(all.end(), higher.begin(), higher.end());
    std::sort(all.begin(), all.end());
    double tie_term = 0;
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j] == all[i]) ++j;
        double t = static_cast<double>(j - i);
        tie_term += t * t * t - t;
        i = j;
    }
    const double N = static_cast<double>(m + n), dm = static_cast<double>(m), dn = static_cast<double>(n);
    const double var = dm * dn / 12.0 * ((N + 1) - tie_term / (N * (N - 1)));
    if (var <= 0) return std::nullopt;
    const double z = (u - dm * dn / 2.0 + 0.5) / std::sqrt(var);
    if (!std::isfinite(z)) return std::nullopt;
    return boost::math::cdf(boost::math::normal(), z);
}

std::optional<double> p_lower(StatTest test, const std::vector<double>& lower, const std::vector<double>& higher) {
    return test == StatTest::welch_t ? welch_p_lower(lower, higher) : mann_whitney_p_lower(lower, higher);
}

}  // namespace perfgate::gates
