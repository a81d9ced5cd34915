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
// The lines of `text` that hold `key`, in order, without their '\n'. Adapters whose patterns are
// line-local search only these: std::regex over a flooding runtime's 8 MiB of kept output took
// 30 s (228 s in the sanitizer build), a find() of the pattern's literal part over it milliseconds.
std::vector<std::string_view> lines_containing(std::string_view text, std::string_view key);
// A token count read as a number: nullopt unless it is finite, >= 0 and fits in 64 bits.
std::optional<std::int64_t> to_count(double value);

}  // namespace perfgate::perf::detail
