#pragma once
// The one place for what a measured number may be, when it is read back and when it is recorded.
// Reading is lenient where history needs it: mlxcel's files hold real `0.00` decode rates (a run
// that generated 0 tokens), which the gate reports as "no ratio can be formed". NaN, infinity and
// negative numbers are never readings, so they stop at the reader and never reach the statistics.
// Recording is strict: a runtime that prints a rate of 0, inf or 1e308 tok/s measured nothing.
#include <optional>
#include <string>

namespace perfgate {

// Largest rate perfgate records (tokens/s). Far above any real prefill or decode rate, and small
// enough that sums and variances of recorded readings cannot overflow a double.
inline constexpr double kMaxRecordedRate = 1e9;

// Reading a measurement column (rates, durations, samples): why `value` is refused, or nullopt.
// "not finite" for NaN/inf, "negative" below 0; 0 is accepted.
std::optional<std::string> unreadable_measure(double value);

// Recording a rate in tok/s: why `value` is no reading, or nullopt. Must be finite, > 0 and at most
// kMaxRecordedRate.
std::optional<std::string> implausible_rate(double value);

}  // namespace perfgate
