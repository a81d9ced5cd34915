// The metric table and the CSV schema agree (the steps of docs/development.md, "How to add a
// metric"): every registered metric has its value column and its samples column, and what a row
// records reads back through the metric's own accessor.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/metric.hpp"

using namespace perfgate;

namespace {
bool has_column(const std::string& name) {
    const auto& columns = perfgate_columns();
    return std::find(columns.begin(), columns.end(), name) != columns.end();
}
}  // namespace

TEST_CASE("every registered metric has its columns, a unit, a label and a direction", "[metric]") {
    std::set<std::string_view> keys;
    for (const auto& m : metrics()) {
        INFO(m.key);
        CHECK(keys.insert(m.key).second);
        CHECK(has_column(std::string(m.key)));
        CHECK(has_column(std::string(m.key) + "_samples"));
        CHECK_FALSE(m.label.empty());
        CHECK_FALSE(m.unit.empty());
        CHECK(m.display_scale > 0);
        CHECK(m.samples != nullptr);
    }
    CHECK(metric_keys() == "decode_tok_s, prefill_tok_s, peak_memory_bytes, peak_device_memory_bytes, "
                           "prefill_instructions_per_token, decode_instructions_per_token, prompt_gen_tok_s, serving_output_tok_s, "
                          "ttft_p50_ms, ttft_p99_ms, tpot_p50_ms, tpot_p99_ms, itl_p50_ms, itl_p99_ms, serving_request_s");
}

TEST_CASE("a metric's samples survive the file: written, read back, read through the table", "[metric]") {
    ResultRow r;
    r.model = "m";
    r.decode_tok_s_samples = {61.5, 62.25, 60.75};
    r.decode_tok_s = 61.5;
    r.prefill_tok_s = 220.0;  // a single reading, no samples
    r.peak_memory_bytes_samples = {536870912.0, 537919488.0};
    r.peak_memory_bytes = 537919488.0;
    const std::string text = perfgate_header_line() + "\n" + format_result_row(r);
    auto file = parse_results_csv(text, "memory.csv");
    REQUIRE(file);
    REQUIRE(file->rows.size() == 1);
    const ResultRow& back = file->rows.front();
    CHECK((back.*metric("decode_tok_s").samples)() == r.decode_tok_s_samples);
    CHECK((back.*metric("prefill_tok_s").samples)() == std::vector<double>{220.0});
    CHECK((back.*metric("peak_memory_bytes").samples)() == r.peak_memory_bytes_samples);
    CHECK(back.peak_memory_bytes == r.peak_memory_bytes);
}

TEST_CASE("files without the peak memory columns read unchanged, the metric empty", "[metric]") {
    for (const char* name : {"/mlxcel-benchmarks/rocm_strixhalo-gfx1151_2026-09-30.csv",
                             "/mlxcel-benchmarks/cuda_gb10_2026-07-12.csv"}) {
        auto file = read_results_csv(std::string(PERFGATE_FIXTURES_DIR) + name);
        REQUIRE(file);
        REQUIRE_FALSE(file->rows.empty());
        for (const auto& row : file->rows) CHECK((row.*metric("peak_memory_bytes").samples)().empty());
    }
}
