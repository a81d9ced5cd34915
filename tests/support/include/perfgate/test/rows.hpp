#pragma once
// Result rows for tests: one builder with the defaults most tests share, and perfgate-schema CSVs
// written through core's own writer (so a test never hand-formats a row).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/result_row.hpp"

namespace perfgate::test {

// The columns tests set most; the rest stay empty. Designated initializers name what a test
// changes: make_row({.model = "qwen3-0.6b", .decode_tok_s = 62.0}).
struct RowFields {
    std::string model = "m";
    std::string runtime = "llama-bench";
    std::string backend = "cpu";
    std::string host = "cpu-epyc";
    std::string date = "2026-11-29";
    std::optional<std::int64_t> prompt_tokens;
    std::optional<std::int64_t> prompt_target_len;
    std::optional<std::int64_t> generated_tokens;
    std::optional<double> decode_tok_s = 10.0;
    std::optional<double> prefill_tok_s;
};

// An ok row (no status token) with those columns.
ResultRow make_row(const RowFields& fields = {});
// The common short form: an ok llama-bench row on cpu-epyc, dated 2026-11-29.
inline ResultRow make_row(const std::string& model, double decode_tok_s) {
    return make_row(RowFields{.model = model, .decode_tok_s = decode_tok_s});
}

std::string perfgate_csv(const std::vector<ResultRow>& rows);  // header line, then one line per row
void write_perfgate_csv(const std::filesystem::path& path, const std::vector<ResultRow>& rows);

}  // namespace perfgate::test
