#pragma once
// Helpers shared by the output adapters (not part of the public API).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/measurement.hpp"

namespace perfgate::perf::detail {

std::optional<double> to_double(std::string_view text);
std::optional<long long> to_int(std::string_view text);
// "<format>: <what> in output: <excerpt>"
Error no_numbers(std::string_view format, std::string_view what, std::string_view output);
// The measurement, or an error when any rate, duration, stddev, sample, token count or peak memory
// in it is negative, NaN or infinite: such a value is garbage in the output, never a reading.
Expected<Measurement> checked(std::string_view format, Measurement m, std::string_view output);
// A token count read as a number: nullopt unless it is finite, >= 0 and fits in 64 bits.
std::optional<std::int64_t> to_count(double value);

}  // namespace perfgate::perf::detail
