#include "perfgate/gates/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

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

double median(std::vector<double> values) {
    if (values.empty()) throw std::invalid_argument("median of no values");
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<long>(mid), values.end());
    double upper = values[mid];
    if (values.size() % 2 == 1) return upper;
    double lower = *std::max_element(values.begin(), values.begin() + static_cast<long>(mid));
    return (lower + upper) / 2.0;
}

double mean(const std::vector<double>& values) {
    if (values.empty()) throw std::invalid_argument("mean of no values");
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

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

std::optional<double> welch_p_lower(const std::vector<double>& lower, const std::vector<double>& higher) {
    if (lower.size() < 2 || higher.size() < 2) return std::nullopt;
    const double m1 = mean(lower), m2 = mean(higher);
    const double n1 = static_cast<double>(lower.size()), n2 = static_cast<double>(higher.size());
    const double a = sample_variance(lower, m1) / n1, b = sample_variance(higher, m2) / n2;
    if (a + b <= 0) return std::nullopt;
    const double t = (m1 - m2) / std::sqrt(a + b);
    const double df = (a + b) * (a + b) / (a * a / (n1 - 1) + b * b / (n2 - 1));
    boost::math::students_t dist(df);
    return boost::math::cdf(dist, t);
}

std::optional<double> mann_whitney_p_lower(const std::vector<double>& lower, const std::vector<double>& higher) {
    if (lower.empty() || higher.empty()) return std::nullopt;
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
    return boost::math::cdf(boost::math::normal(), z);
}

std::optional<double> p_lower(StatTest test, const std::vector<double>& lower, const std::vector<double>& higher) {
    return test == StatTest::welch_t ? welch_p_lower(lower, higher) : mann_whitney_p_lower(lower, higher);
}

}  // namespace perfgate::gates
