// Model specs: the repository's specs parse and have the published sizes of the real models;
// malformed specs are refused with file:line errors.
#include <catch2/catch.hpp>

#include "forge_test_support.hpp"
#include "perfgate/forge/model_spec.hpp"

using namespace perfgate::forge;

namespace {

std::uint64_t embedding_parameters(const ModelSpec& s) { return s.vocab_size * s.embedding_length * (s.tied_embeddings ? 1 : 2); }

std::string error_of(const std::string& text) {
    auto spec = parse_model_spec(text, "x.json");
    REQUIRE_FALSE(spec);
    return spec.error().message;
}

using forge_test::kValid;


}  // namespace

TEST_CASE("every spec in perf/models parses", "[forge][spec]") {
    int n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(PERFGATE_SOURCE_DIR) / "perf/models")) {
        if (entry.path().extension() != ".json") continue;
        auto spec = load_model_spec(entry.path());
        INFO(entry.path().string());
        REQUIRE(spec);
        CHECK(spec->name + ".json" == entry.path().filename().string());
        ++n;
    }
    CHECK(n >= 5);
}

TEST_CASE("specs have the parameter counts the model cards publish", "[forge][spec]") {
    // Published: Qwen3-0.6B 0.44 B non-embedding parameters; Llama 3.2 1B 1.23 B (tied);
    // Llama 3.1 70B 70.6 B. The CI model must stay under 30 M.
    const auto qwen = forge_test::load_repo_spec("qwen3-0.6b");
    CHECK(parameter_count(qwen) - embedding_parameters(qwen) == Approx(0.44e9).epsilon(0.01));
    CHECK(parameter_count(forge_test::load_repo_spec("llama-3.2-1b")) == Approx(1.236e9).epsilon(0.01));
    CHECK(parameter_count(forge_test::load_repo_spec("llama-3.1-70b")) == Approx(70.55e9).epsilon(0.01));
    CHECK(parameter_count(forge_test::load_repo_spec("tiny-llama-ci")) <= 30'000'000);
}

TEST_CASE("weight bytes follow the block sizes of each type", "[forge][spec]") {
    auto spec = *parse_model_spec(kValid, "x.json");
    const auto plan = tensor_plan(spec);
    std::uint64_t norms = 0, matrices = 0;
    for (const auto& t : plan) (t.dims.size() == 1 ? norms : matrices) += t.elements();
    CHECK(norms + matrices == parameter_count(spec));
    CHECK(estimated_weight_bytes(spec) == norms * 4 + matrices / 32 * 18);
    spec.weight_type = WeightType::Q8_0;
    CHECK(estimated_weight_bytes(spec) == norms * 4 + matrices / 32 * 34);
    spec.weight_type = WeightType::F16;
    CHECK(estimated_weight_bytes(spec) == norms * 4 + matrices * 2);
    // 70B in Q4_0 is far beyond a 24 GiB host.
    CHECK(estimated_weight_bytes(forge_test::load_repo_spec("llama-3.1-70b")) > 36ULL << 30);
}

TEST_CASE("the tensor plan follows llama.cpp's layout per architecture", "[forge][spec]") {
    const auto moe = forge_test::load_repo_spec("qwen3moe-a1b");
    const auto plan = tensor_plan(moe);
    auto find = [&](const std::string& name) {
        for (const auto& t : plan)
            if (t.name == name) return t;
        FAIL("no tensor " << name);
        return TensorPlan{};
    };
    CHECK(find("blk.0.ffn_gate_exps.weight").dims == std::vector<std::uint64_t>{2048, 768, 32});
    CHECK(find("blk.11.ffn_down_exps.weight").dims == std::vector<std::uint64_t>{768, 2048, 32});
    CHECK(find("blk.0.ffn_gate_inp.weight").type == WeightType::F32);
    CHECK(find("blk.3.attn_q.weight").dims == std::vector<std::uint64_t>{2048, 32 * 128});
    CHECK(find("blk.3.attn_k_norm.weight").dims == std::vector<std::uint64_t>{128});
    CHECK(find("output.weight").dims == std::vector<std::uint64_t>{2048, 151936});

    const auto tiny = tensor_plan(forge_test::load_repo_spec("tiny-llama-ci"));
    for (const auto& t : tiny) {
        CHECK(t.name != "output.weight");                       // tied embeddings
        CHECK(t.name.find("attn_q_norm") == std::string::npos);  // llama has no q/k norms
    }
}

TEST_CASE("spec errors name the file and line", "[forge][spec]") {
    CHECK_THAT(error_of("{\n  \"name\": \"t\",\n  \"vocab_size\": ,\n}"), Catch::StartsWith("x.json:3: invalid JSON"));

    std::string unknown = kValid;
    unknown.replace(unknown.find("\"block_count\""), 13, "\"block_cuont\"");
    CHECK_THAT(error_of(unknown), Catch::StartsWith("x.json:8: unknown key \"block_cuont\""));

    std::string bad_type = kValid;
    bad_type.replace(bad_type.find("Q4_0"), 4, "Q5_K");
    CHECK_THAT(error_of(bad_type), Catch::StartsWith("x.json:11:") && Catch::Contains("weight_type"));

    std::string negative = kValid;
    negative.replace(negative.find("512"), 3, "-512");
    CHECK_THAT(error_of(negative), Catch::StartsWith("x.json:6:") && Catch::Contains("\"context_length\" must be an integer >= 1"));

    std::string bad_gqa = kValid;
    bad_gqa.replace(bad_gqa.find("\"head_count\": 4"), 15, "\"head_count\": 4, \"head_count_kv\": 3");
    CHECK_THAT(error_of(bad_gqa), Catch::Contains("multiple of \"head_count_kv\""));

    std::string odd_rows = kValid;
    odd_rows.replace(odd_rows.find("256"), 3, "250");
    CHECK_THAT(error_of(odd_rows), Catch::StartsWith("x.json:9:") && Catch::Contains("multiple of 32"));

    std::string missing = kValid;
    missing.replace(missing.find("\"architecture\": \"llama\",\n"), 25, "");
    CHECK_THAT(error_of(missing), Catch::Contains("missing \"architecture\""));
}

TEST_CASE("the spec hash changes with anything that changes the file", "[forge][spec]") {
    const auto base = *parse_model_spec(kValid, "x.json");
    CHECK(spec_hash(base) == spec_hash(*parse_model_spec(kValid, "y.json")));
    CHECK(spec_hash(base).size() == 16);
    auto other = base;
    other.seed = 2;
    CHECK(spec_hash(other) != spec_hash(base));
    other = base;
    other.weight_type = WeightType::Q8_0;
    CHECK(spec_hash(other) != spec_hash(base));
    other = base;
    other.rms_norm_eps = 1e-6;
    CHECK(spec_hash(other) != spec_hash(base));
}

TEST_CASE("the bytes a decoded token reads: a mixture's active experts and one row of an untied embedding",
          "[forge][spec]") {
    // qwen3moe-a1b, by hand from its spec: Q4_0 (18 bytes per 32 weights), 12 blocks of 32 experts
    // of 768 (gate, up, down over 2048), 8 used per token; an untied 151936 x 2048 embedding.
    const auto moe = forge_test::load_repo_spec("qwen3moe-a1b");
    const std::uint64_t experts_per_block = 3ULL * 2048 * 768 * 32 / 32 * 18;
    const std::uint64_t unread_experts = 12 * (experts_per_block - experts_per_block / 32 * 8);
    const std::uint64_t embedding = 151936ULL * 2048 / 32 * 18, one_row = 2048 / 32 * 18;
    CHECK(bytes_read_per_token(moe) == estimated_weight_bytes(moe) - unread_experts - (embedding - one_row));
    // About 1 B of its 2.7 B parameters are active (the spec's description): 37% of the file.
    CHECK(static_cast<double>(bytes_read_per_token(moe)) / static_cast<double>(estimated_weight_bytes(moe)) ==
          Approx(0.37).margin(0.02));
    // A dense model with a tied embedding (llama-3.2-1b) reads the whole file: the output is the embedding.
    const auto tied = forge_test::load_repo_spec("llama-3.2-1b");
    REQUIRE(tied.tied_embeddings);
    CHECK(bytes_read_per_token(tied) == estimated_weight_bytes(tied));
}
