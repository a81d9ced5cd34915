#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>

#include "perfgate/core/csv.hpp"

using namespace perfgate;

namespace {
ResultRow sample_row() {
    ResultRow r;
    r.model = "qwen3-0.6b";
    r.model_path = "/tmp/models/qwen3-0.6b-Q4_0.gguf";
    r.prompt_tokens = 512;
    r.generated_tokens = 128;
    r.prefill_ms = 2306.31;
    r.prefill_tok_s = 222.0;
    r.decode_ms = 2064.52;
    r.decode_tok_s = 62.0;
    r.date = "2026-11-29";
    r.hardware = "AMD_EPYC_7B13_24GB";
    r.runtime_version = "b7000";
    r.build_type = "release";
    r.max_tokens = 128;
    r.prompt = "She said \"hi, there\"\nand left, twice";
    r.prompt_target_len = 512;
    r.runtime_commit = "de3ff815ea7d559ee917f063901b8986f038abc6";
    r.upstream_commit = "0123456789abcdef0123456789abcdef01234567";
    r.runtime = "llama-bench";
    r.backend = "cpu";
    r.host = "cpu-epyc";
    r.device = "AMD EPYC 7B13";
    r.device_memory_bytes = 25769803776ull;
    r.uma = true;
    r.repetitions = 3;
    r.warmup = 1;
    r.batch = 1;
    r.prefill_tok_s_samples = {221.3456789, 222.0, 222.9};
    r.decode_tok_s_samples = {61.9, 62.0, 62.123456789012};
    r.flags = "-t 2, -fa 0";
    r.synthetic = true;
    r.cooldown_s = 0.5;
    r.status.text = "ok";
    return r;
}

void require_equal(const ResultRow& a, const ResultRow& b) {
    CHECK(a.model == b.model);
    CHECK(a.prompt == b.prompt);
    CHECK(a.prompt_tokens == b.prompt_tokens);
    CHECK(a.prefill_ms == b.prefill_ms);
    CHECK(a.decode_tok_s == b.decode_tok_s);
    CHECK(a.runtime_commit == b.runtime_commit);
    CHECK(a.upstream_commit == b.upstream_commit);
    CHECK(a.device_memory_bytes == b.device_memory_bytes);
    CHECK(a.uma == b.uma);
    CHECK(a.prefill_tok_s_samples == b.prefill_tok_s_samples);
    CHECK(a.decode_tok_s_samples == b.decode_tok_s_samples);
    CHECK(a.flags == b.flags);
    CHECK(a.synthetic == b.synthetic);
    CHECK(a.cooldown_s == b.cooldown_s);
    CHECK(a.status.text == b.status.text);
    CHECK(format_result_row(a) == format_result_row(b));
}
}  // namespace

TEST_CASE("perfgate's schema starts with mlxcel's 17 columns, then the ROCm two", "[csv][schema]") {
    const auto& cols = perfgate_columns();
    const std::vector<std::string> mlxcel = {"model", "model_path", "prompt_tokens", "generated_tokens", "prefill_ms",
                                             "prefill_tok_s", "decode_ms", "decode_tok_s", "date", "hardware",
                                             "mlxcel_version", "build_type", "max_tokens", "prompt",
                                             "prompt_target_len", "mlxcel_commit", "mlx_commit",
                                             "mlx_rocm_overlay_commit", "hip_version"};
    REQUIRE(cols.size() > mlxcel.size());
    CHECK(std::vector<std::string>(cols.begin(), cols.begin() + mlxcel.size()) == mlxcel);
    for (auto required : {"runtime", "backend", "host", "device", "device_arch", "device_memory_bytes", "repetitions",
                          "warmup", "batch", "prefill_tok_s_samples", "decode_tok_s_samples", "rocm_version",
                          "cuda_version", "driver_version", "os", "flags", "status"})
        CHECK(std::find(cols.begin(), cols.end(), required) != cols.end());
}

TEST_CASE("a row round-trips through perfgate's schema", "[csv][schema]") {
    auto row = sample_row();
    ResultRow skipped;
    skipped.model = "llama-3.1-70b";
    skipped.status.text = "SKIP:oom_estimate";
    std::string text = perfgate_header_line() + "\n" + format_result_row(row) + format_result_row(skipped);
    auto parsed = parse_results_csv(text, "roundtrip.csv");
    INFO((parsed ? "" : parsed.error().message));
    REQUIRE(parsed);
    CHECK(parsed->generation == CsvGeneration::Perfgate);
    REQUIRE(parsed->rows.size() == 2);
    require_equal(row, parsed->rows[0]);
    CHECK(parsed->rows[0].runtime_commit.size() == 40);
    CHECK(parsed->rows[0].source_line == 2);
    CHECK(parsed->rows[1].source_line == 4);  // the prompt's newline spans a line
    require_equal(skipped, parsed->rows[1]);
}

TEST_CASE("escaping keeps crafted values inside their field", "[csv][schema]") {
    ResultRow r = sample_row();
    r.model = "evil,model\"\nnext,row";
    std::string text = perfgate_header_line() + "\n" + format_result_row(r);
    auto parsed = parse_results_csv(text, "evil.csv");
    REQUIRE(parsed);
    REQUIRE(parsed->rows.size() == 1);
    CHECK(parsed->rows[0].model == r.model);
}
