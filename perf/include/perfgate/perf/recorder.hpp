#pragma once
// Turning one pair's outcome into a results row, naming its CSV file and announcing the numbers
// to CTest.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"

namespace perfgate::perf {

// <dir>/<backend>_<host_tag>_<YYYY-MM-DD>[_<suffix>].csv. Refuses parts that could leave the
// directory or break the file-name convention (a '_' in the host tag, '/', "..").
Expected<std::filesystem::path> results_file(const std::filesystem::path& dir, const std::string& backend,
                                             const std::string& host_tag, const std::string& date,
                                             const std::string& suffix);

// Appends the row under the file lock (core's append_results_locked).
Status record_row(const std::filesystem::path& file, const ResultRow& row);

// <CTestMeasurement type="numeric/double" name="decode_tok_s">X</CTestMeasurement> lines.
void print_ctest_measurements(std::ostream& out, const ResultRow& row);

}  // namespace perfgate::perf
