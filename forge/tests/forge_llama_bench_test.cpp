// llama.cpp loads a forged model: llama-bench runs the CI spec and reports the spec's parameter
// count, weight bytes and architecture. Skipped (CTest shows Skipped) only when the build has no
// llama-bench or no llama.cpp models/ folder configured.
#include <catch2/catch.hpp>

#include <iostream>

#include <nlohmann/json.hpp>

#include "forge_test_support.hpp"
#include "perfgate/core/process.hpp"
#include "perfgate/forge/forge.hpp"

using namespace perfgate::forge;

namespace {

// Matched by the test's SKIP_REGULAR_EXPRESSION (perf/forge.cmake).
void skip(const std::string& why) { std::cout << "PERFGATE_TEST_SKIPPED: " << why << std::endl; }

}  // namespace

TEST_CASE("llama-bench loads and runs a forged model", "[forge][llama]") {
    const std::string bench = PERFGATE_TEST_LLAMA_BENCH;
    const std::string vocab_dir = PERFGATE_TEST_VOCAB_DIR;
    if (bench.empty()) return skip("no llama-bench configured (PERFGATE_LLAMA_BENCH)");
    if (vocab_dir.empty()) return skip("no llama.cpp models/ folder configured (PERFGATE_LLAMA_VOCAB_DIR)");
    REQUIRE(std::filesystem::exists(bench));

    forge_test::ScratchDir dir;
    const auto spec = forge_test::load_repo_spec("tiny-llama-ci");
    ForgeOptions options;
    options.out_dir = dir.path;
    options.vocab_dir = vocab_dir;
    options.max_bytes = 1ULL << 30;
    auto forged = forge_model(spec, options);
    REQUIRE(forged);

    perfgate::ProcessRequest request;
    request.program = bench;
    request.args = {"-m", forged->path.string(), "-p", "16", "-n", "4", "-r", "1", "-t", "2", "-o", "json"};
    request.timeout = std::chrono::minutes(5);
    const auto r = perfgate::run_process(request);
    REQUIRE(r);
    // stderr carries llama.cpp's load log; it is shown only to explain a failure.
    INFO("llama-bench output: " << r->out << "\nits log: " << r->err);
    REQUIRE(r->shell_status() == 0);
    const auto rows = nlohmann::json::parse(r->out);
    REQUIRE(rows.is_array());
    REQUIRE(rows.size() == 2);  // the prompt test and the generation test
    for (const auto& row : rows) {
        CHECK(row.at("model_n_params").get<std::uint64_t>() == parameter_count(spec));
        CHECK(row.at("model_size").get<std::uint64_t>() == estimated_weight_bytes(spec));
        const auto type = row.at("model_type").get<std::string>();
        CHECK_THAT(type, Catch::StartsWith("llama ") && Catch::EndsWith(" Q8_0"));
        CHECK(row.at("avg_ts").get<double>() > 0.0);
    }
    CHECK(rows[0].at("n_prompt") == 16);
    CHECK(rows[1].at("n_gen") == 4);
}
