#pragma once
// Result rows for tests: one builder with the defaults most tests share, and perfgate-schema CSVs
// written through core's own writer (so a test never hand-formats a row).
#include <filesystem>
#include <string>
#include <vector>

#include "perfgate/core/result_row.hpp"

namespace perfgate::test {

// An ok row of llama-bench on cpu-epyc, dated 2026-11-29, with the given decode rate.
ResultRow make_row(const std::string& model = "m", double decode_tok_s = 10.0);

std::string perfgate_csv(const std::vector<ResultRow>& rows);  // header line, then one line per row
void write_perfgate_csv(const std::filesystem::path& path, const std::vector<ResultRow>& rows);

}  // namespace perfgate::test
