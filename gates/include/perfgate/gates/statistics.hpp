#pragma once
// The significance tests behind a "regressed" verdict with repetition samples on both sides.
// Both are one-sided: H1 says the `lower` sample comes from a distribution with smaller values.
#include <optional>
#include <string_view>
#include <vector>

#include "perfgate/core/stats.hpp"

namespace perfgate::gates {

enum class StatTest { welch_t, mann_whitney_u };
const char* to_string(StatTest test);
std::optional<StatTest> stat_test_from_string(std::string_view name);

// Inputs must be finite (the CSV reader and the recorder see to it): a NaN or infinity is a bug
// upstream and throws std::invalid_argument; no Boost exception escapes. Huge finite readings
// (1e308) are handled without overflow. median and mean are core's (perfgate/core/stats.hpp).
using perfgate::mean;
using perfgate::median;

// Welch's unequal-variance t-test, one-sided, p = P(T <= t) with Welch–Satterthwaite degrees of
// freedom (Boost.Math students_t). nullopt with fewer than 2 values on a side or no spread at all.
std::optional<double> welch_p_lower(const std::vector<double>& lower, const std::vector<double>& higher);

// Mann–Whitney U, one-sided: exact null distribution without ties (small samples), otherwise the
// normal approximation with tie correction and continuity correction. nullopt with an empty side or
// when every value is tied.
std::optional<double> mann_whitney_p_lower(const std::vector<double>& lower, const std::vector<double>& higher);

std::optional<double> p_lower(StatTest test, const std::vector<double>& lower, const std::vector<double>& higher);

}  // namespace perfgate::gates
