// Issue 18, item 1: a runtime whose output holds a rate of inf, 0 or 1e308 tok/s measured nothing.
// Recorded as `ok`, such a row made every later gate of the host abort; now the launch is
// FAIL:bench, with a reason naming the runtime and an excerpt of its output.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "perfgate/core/csv.hpp"
#include "classify.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
namespace fs = std::filesystem;

namespace {

// llama-bench -o json as a runtime would print it, with the given tg rate (text, so that 1e308
// stays as printed).
std::string llama_bench_json(const std::string& tg_rate) {
    return "[\n"
           "  {\"build_commit\": \"de3ff81\", \"n_prompt\": 64, \"n_gen\": 0, \"avg_ns\": 966664526, \"avg_ts\": 66.2,\n"
           "   \"samples_ns\": [966664526], \"samples_ts\": [66.2]},\n"
           "  {\"build_commit\": \"de3ff81\", \"n_prompt\": 0, \"n_gen\": 16, \"avg_ns\": 1000000, \"avg_ts\": " +
           tg_rate + ",\n   \"stddev_ts\": 0, \"samples_ns\": [1000000], \"samples_ts\": [" + tg_rate + "]}\n]\n";
}

// A suite whose one runtime prints `output` and exits 0.
fs::path suite_printing(const fs::path& dir, const std::string& output) {
    std::ofstream(dir / "output.json") << output;
    std::ofstream(dir / "runtime.sh") << "#!/bin/sh\ncat \"$(dirname \"$0\")/output.json\"\n";
    fs::permissions(dir / "runtime.sh", fs::perms::owner_all);
    std::ofstream(dir / "suite.json")
        << R"({"suite": "implausible", "backend": "rocm", "replay": true,
  "workload": {"prompt_tokens": 64, "generated_tokens": 16, "warmup": 0, "repetitions": 1, "timeout_s": 60},
  "models": [{"name": "small", "checkpoint": "models/small", "format": "4bit", "weight_gb": 0.5}],
  "runtimes": [{"name": "stub-bench", "kind": "mlxcel", "binary": "./runtime.sh", "args": ["print"],
                "output": "llama-bench-json"}]})";
    return dir / "suite.json";
}

HostContext host() {
    HostContext h;
    h.backend = "rocm";
    h.host = "strixhalo-gfx1151";
    h.device_memory_bytes = 96ull << 30;
    h.usable_memory_bytes = 80ull << 30;
    h.memory_is_device = true;
    h.date = "2026-11-29";
    h.run_id = "implausible-test";
    h.replay = "implausible_rate_test";
    return h;
}

}  // namespace

TEST_CASE("the recording rule for rates", "[classify][implausible]") {
    Measurement m;
    m.decode_tok_s = 64.0;
    m.decode_samples = {63.0, 65.0};
    CHECK_FALSE(implausible_measurement(m));
    m.prefill_tok_s = 0.0;
    CHECK_THAT(*implausible_measurement(m), Catch::Contains("prefill_tok_s") && Catch::Contains("not a positive rate"));
    m.prefill_tok_s.reset();
    m.decode_samples = {63.0, 1e308};
    CHECK_THAT(*implausible_measurement(m), Catch::Contains("decode sample") && Catch::Contains("plausible"));
}

TEST_CASE("llama-bench JSON with avg_ts 1e308 or 0 is FAIL:bench naming the runtime, never an ok row",
          "[pair][implausible]") {
    for (const char* rate : {"1e308", "0", "1.7976931348623157e308"}) {
        INFO(rate);
        const auto dir = test::temp_dir(std::string("implausible-") + (rate[0] == '0' ? "zero" : "huge"));
        auto suite = load_suite(suite_printing(dir, llama_bench_json(rate)));
        REQUIRE(suite);
        PairRequest req;
        req.runtime = "stub-bench";
        req.model = "small";
        req.host = host();
        req.results_dir = dir / "results";
        std::ostringstream log, out;
        auto o = run_pair(*suite, req, log, out);
        REQUIRE(o);
        CHECK(o->status.text == "FAIL:bench");
        CHECK_THAT(o->reason, Catch::Contains("runtime stub-bench") && Catch::Contains("decode_tok_s") &&
                                  Catch::Contains("output ends:") && Catch::Contains("n_gen"));
        // The row that is recorded says FAIL:bench and carries no rate.
        auto file = perfgate::read_results_csv(o->csv.string());
        REQUIRE(file);
        REQUIRE(file->rows.size() == 1);
        CHECK(file->rows.front().status.text == "FAIL:bench");
        CHECK_FALSE(file->rows.front().decode_tok_s);
    }
}
