// Every published mlxcel CSV in tests/fixtures/mlxcel-benchmarks must load unchanged.
#include <catch2/catch.hpp>

#include <map>

#include "perfgate/core/csv.hpp"
#include "test_support.hpp"

using namespace perfgate;

namespace {
std::map<std::string, int> count_tokens(const ResultFile& f) {
    std::map<std::string, int> counts;
    for (const auto& r : f.rows)
        if (!r.status.ok()) ++counts[r.status.is_skip() ? "SKIP:" + r.status.reason() : "FAIL:" + r.status.reason()];
    return counts;
}
const ResultRow& row_named(const ResultFile& f, const std::string& model) {
    for (const auto& r : f.rows)
        if (r.model == model) return r;
    FAIL("no row for " << model);
    throw;
}
ResultFile load(const std::string& name) {
    auto f = read_results_csv(test::mlxcel_csv(name));
    INFO((f ? std::string() : f.error().message));
    REQUIRE(f.has_value());
    return std::move(f).value();
}
}  // namespace

TEST_CASE("cuda_gb10 (generation B, mlxcel_version name, zero-decode row)", "[csv][fixtures]") {
    auto f = load("cuda_gb10_2026-07-12.csv");
    CHECK(f.generation == CsvGeneration::B);
    CHECK(f.rows.size() == 159);
    CHECK(count_tokens(f) == std::map<std::string, int>{{"FAIL:bench", 10}, {"SKIP:oom_estimate", 7}});
    const auto& pali = row_named(f, "paligemma2-3b-6bit");
    REQUIRE(pali.decode_tok_s);
    CHECK(*pali.decode_tok_s == 0.0);
    CHECK(*pali.generated_tokens == 0);
    CHECK(*pali.prefill_tok_s == Approx(355.87));
    CHECK(pali.prompt == "Hello, how are you today?");
    CHECK_FALSE(pali.prompt_target_len);
    const auto& apertus = row_named(f, "apertus-8b-instruct-2509-4bit");
    CHECK(*apertus.decode_tok_s == Approx(50.83));
    CHECK(apertus.runtime_version == "0.4.0-rc.1");
    CHECK(apertus.runtime == "mlxcel");
    CHECK(apertus.hardware == "NVIDIA_GB10_122GB");
}

TEST_CASE("cuda_v100 (generation B, mlx_version name)", "[csv][fixtures]") {
    auto f = load("cuda_v100_2026-08-31.csv");
    CHECK(f.generation == CsvGeneration::B);
    CHECK(f.rows.size() == 5);
    CHECK(count_tokens(f).empty());
    const auto& g = row_named(f, "gemma-4-12b-it-8bit");
    CHECK(*g.decode_tok_s == Approx(17.40));
    CHECK(g.runtime_version == "0.6.0");
}

TEST_CASE("metal_m1ultra sweep (generation C, trailing status tokens)", "[csv][fixtures]") {
    auto f = load("metal_m1ultra_2026-09-06.csv");
    CHECK(f.generation == CsvGeneration::C);
    CHECK(f.rows.size() == 199);
    CHECK(count_tokens(f) == std::map<std::string, int>{{"FAIL:bench", 15},
                                                        {"SKIP:duplicate_of", 16},
                                                        {"SKIP:not_a_checkpoint", 2},
                                                        {"SKIP:oom_estimate", 1}});
    const auto& a = row_named(f, "apertus-8b-instruct-2509-4bit");
    CHECK(*a.prompt_tokens == 512);
    CHECK(*a.prefill_ms == Approx(967.60));
    CHECK(*a.decode_tok_s == Approx(81.83));
    CHECK(a.runtime_commit == "30ab5a39");
    CHECK(a.upstream_commit == "9a795735");
    const auto& dup = row_named(f, "gemma3-1b-4bit");
    CHECK(dup.status.text == "SKIP:duplicate_of=gemma-3-1b-it-4bit");
    CHECK(dup.status.value() == "gemma-3-1b-it-4bit");
    CHECK_FALSE(dup.decode_tok_s);
    CHECK(f.rows.back().model == "gemma3n-e4b-bf16");
}

TEST_CASE("single-model file", "[csv][fixtures]") {
    auto f = load("metal_m1ultra_2026-09-08_single_gemma2-2b-4bit.csv");
    REQUIRE(f.rows.size() == 1);
    CHECK(f.rows[0].runtime_commit == "819a559a");
    CHECK(*f.rows[0].decode_tok_s == Approx(154.39));
}

TEST_CASE("m5max VLM files", "[csv][fixtures]") {
    auto a = load("metal_m5max_vlm_2026-09-06.csv");
    CHECK(a.rows.size() == 176);
    CHECK(count_tokens(a) == std::map<std::string, int>{{"FAIL:bench", 86},
                                                        {"SKIP:duplicate_of", 14},
                                                        {"SKIP:not_a_checkpoint", 2},
                                                        {"SKIP:oom_estimate", 2},
                                                        {"SKIP:missing_weights", 1}});
    CHECK(a.rows[0].runtime_commit == "a50ff440-dirty");
    auto b = load("metal_m5max_vlm_2026-09-09.csv");
    CHECK(b.rows.size() == 92);
    CHECK(count_tokens(b) == std::map<std::string, int>{{"FAIL:bench", 14}});
    CHECK(*row_named(b, "aya-vision-8b-4bit").decode_tok_s == Approx(112.41));
}

TEST_CASE("pylm file (generation P)", "[csv][fixtures]") {
    auto f = load("pylm_strixhalo-gfx1151_2026-09-30.csv");
    CHECK(f.generation == CsvGeneration::P);
    CHECK(f.rows.size() == 5);
    CHECK(count_tokens(f).empty());
    const auto& m = row_named(f, "Mixtral-8x7B-Instruct-v0.1-4bit");
    CHECK(*m.prompt_tokens == 513);
    CHECK(*m.decode_tok_s == Approx(9.98));
    CHECK(m.runtime == "mlx-lm");
    CHECK(m.runtime_version == "mlx-lm-0.31.3+mlx-0.32.3.dev20260912+a7d4c85a");
}

TEST_CASE("rocm file (generation C-ROCm, 19 columns)", "[csv][fixtures]") {
    auto f = load("rocm_strixhalo-gfx1151_2026-09-30.csv");
    CHECK(f.generation == CsvGeneration::C_rocm);
    CHECK(f.rows.size() == 5);
    const auto& q = row_named(f, "Qwen3-0.6B-4bit");
    CHECK(*q.decode_tok_s == Approx(278.48));
    CHECK(*q.prefill_tok_s == Approx(4417.27));
    CHECK(q.overlay_commit == "75915908");
    CHECK(q.hip_version == "7.15.26333");
    CHECK(q.hardware == "AMD_Radeon_8060S_Graphics_gfx1151_ROCm10.0.0_96GB");
}

TEST_CASE("generations A, A' and B' are recognised by their headers", "[csv]") {
    const std::string common = "model,model_path,prompt_tokens,generated_tokens,prefill_ms,prefill_tok_s,decode_ms,decode_tok_s,date,hardware,";
    auto a = parse_results_csv(common + "mlx_version,build_type,max_tokens,prompt\n"
                                        "m,p/,8,100,1.00,8.00,2.00,50.00,2026-06-01,H,0.31.2,release,100,\"Hello, how are you today?\"\n",
                               "a.csv");
    REQUIRE(a);
    CHECK(a->generation == CsvGeneration::A);
    CHECK(*a->rows[0].decode_tok_s == 50.0);
    auto ap = parse_results_csv(common + "mlxcel_version,build_type,max_tokens,prompt\n", "ap.csv");
    REQUIRE(ap);
    CHECK(ap->generation == CsvGeneration::A_prime);
    auto bp = parse_results_csv(common + "mlx_version,build_type,max_tokens,prompt,prompt_target_len,commit\n"
                                         "m,p/,,,,,,,2026-09-01,H,0.7.0,release,128,\"x\",512,abcdef12,FAIL:bench\n",
                                "bp.csv");
    REQUIRE(bp);
    CHECK(bp->generation == CsvGeneration::B_prime);
    CHECK(bp->rows[0].runtime_commit == "abcdef12");
    CHECK(bp->rows[0].status.text == "FAIL:bench");
}
