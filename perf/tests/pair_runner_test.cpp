#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "perfgate/core/csv.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
namespace fs = std::filesystem;

// The facts of the replayed Strix Halo as the probe reports them (see fit_test for the probe itself).
static HostContext strix_halo_facts() {
    HostContext h;
    h.backend = "rocm";
    h.host = "strixhalo-gfx1151";
    h.hardware = "AMD_Radeon_8060S_Graphics_gfx1151_96GB";
    h.device = "AMD Radeon 8060S Graphics";
    h.device_arch = "gfx1151";
    h.device_memory_bytes = 96ull << 30;
    h.usable_memory_bytes = static_cast<std::uint64_t>(0.85 * static_cast<double>(96ull << 30));
    h.memory_is_device = true;
    h.date = "2026-11-29";
    h.run_id = "test-run";
    h.replay = "pair_runner_test";
    return h;
}

struct Run {
    PairOutcome outcome;
    std::string log, out;
};

static Run run(const Suite& suite, const std::string& rt, const std::string& model, const fs::path& results,
               HostContext host = strix_halo_facts()) {
    PairRequest req;
    req.runtime = rt;
    req.model = model;
    req.host = host;
    req.results_dir = results;
    std::ostringstream log, out;
    auto o = run_pair(suite, req, log, out);
    REQUIRE(o);
    return {*o, log.str(), out.str()};
}

TEST_CASE("pairs end as classified and each writes one well-formed row", "[pair]") {
    auto suite = load_suite(test::data() / "stub-suite.json");
    REQUIRE(suite);
    const auto results = test::temp_dir("pairs");

    const auto ok = run(*suite, "stub-ok", "small", results);
    CHECK(ok.outcome.status.text == "ok");
    CHECK_THAT(ok.log, Catch::Contains("repetition 2/2 decode 62.68 tok/s"));
    CHECK_THAT(ok.log, Catch::Contains("warmup 1/1"));
    CHECK_THAT(ok.log, Catch::Contains("REPLAY"));
    CHECK_THAT(ok.out, Catch::Contains("<CTestMeasurement type=\"numeric/double\" name=\"decode_tok_s\">62.68</CTestMeasurement>"));

    const auto big = run(*suite, "stub-ok", "big60", results);
    CHECK(big.outcome.status.text == "ok");
    const auto huge = run(*suite, "stub-ok", "huge110", results);
    CHECK(huge.outcome.status.text == "SKIP:oom_estimate");
    CHECK_THAT(huge.outcome.reason, Catch::StartsWith("needs 102.9 GiB, device has 81.6 GiB usable"));

    CHECK(run(*suite, "stub-profile", "small", results).outcome.status.text == "ok");
    CHECK(run(*suite, "stub-mlxlm", "small", results).outcome.status.text == "ok");
    CHECK(run(*suite, "stub-exit137", "small", results).outcome.status.text == "SKIP:oom");
    CHECK(run(*suite, "stub-oom", "small", results).outcome.status.text == "SKIP:oom");
    const auto fail = run(*suite, "stub-fail", "small", results);
    CHECK(fail.outcome.status.text == "FAIL:bench");
    CHECK_THAT(fail.outcome.reason, Catch::Contains("unknown model architecture"));
    CHECK(run(*suite, "stub-garbage", "small", results).outcome.status.text == "FAIL:no_output");

    const auto csv = perfgate::read_results_csv((results / "rocm_strixhalo-gfx1151_2026-11-29_replay.csv").string());
    REQUIRE(csv);
    REQUIRE(csv->rows.size() == 9);
    const auto& row = csv->rows[0];
    CHECK(row.model == "small");
    CHECK(row.runtime == "stub-ok");
    CHECK(row.backend == "rocm");
    CHECK(row.host == "strixhalo-gfx1151");
    CHECK(row.decode_tok_s == Approx(62.68));
    CHECK(row.decode_tok_s_samples == std::vector<double>{62.68, 62.68});
    CHECK(row.generated_tokens == 200);
    CHECK(row.repetitions == 2);
    CHECK(row.warmup == 1);
    CHECK(row.run_id == "test-run");
    CHECK(row.device_arch == "gfx1151");
    CHECK_THAT(row.command, Catch::Contains("stub-runtime.sh print mlxcel-generate_m1max"));
    CHECK(row.status.ok());
    const auto& profile = csv->rows[3];
    CHECK(profile.runtime == "stub-profile");
    CHECK(profile.decode_tok_s == Approx(278.48));
    CHECK(profile.prefill_tok_s == Approx(4417.27));
    CHECK(profile.prompt_tokens == 512);
    const auto& skipped = csv->rows[2];
    CHECK(skipped.status.text == "SKIP:oom_estimate");
    CHECK_FALSE(skipped.decode_tok_s);
    CHECK(skipped.model_bytes == 110000000000ull);
}

TEST_CASE("a pair records the peak memory of each measured launch, not of the warmups", "[pair][memory]") {
    auto suite = load_suite(test::data() / "stub-suite.json");
    REQUIRE(suite);
    const auto results = test::temp_dir("peak-memory");
    const auto ok = run(*suite, "stub-ok", "small", results);
    REQUIRE(ok.outcome.status.text == "ok");
    const auto& row = *ok.outcome.row;
    // The stub suite has one warmup and two repetitions, one process each: two samples.
    REQUIRE(row.peak_memory_bytes_samples.size() == 2);
    for (double s : row.peak_memory_bytes_samples) {
        CHECK(s > 0);
        CHECK(s < 256.0 * 1024 * 1024);  // a shell printing a file
    }
    REQUIRE(row.peak_memory_bytes);
    CHECK(*row.peak_memory_bytes ==
          *std::max_element(row.peak_memory_bytes_samples.begin(), row.peak_memory_bytes_samples.end()));
    CHECK_THAT(ok.log, Catch::Contains("decode 62.68 tok/s (median of samples 62.68, 62.68)"));
    CHECK_THAT(ok.log, Catch::Contains(fmt::format(", peak memory {:.1f} MiB\n", *row.peak_memory_bytes / (1024.0 * 1024.0))));

    // mlx-lm prints its own peak (3.285 GB in this recording); the column keeps the kernel's figure
    // of the process, so that it means the same for every runtime.
    const auto mlx = run(*suite, "stub-mlxlm", "small", results);
    REQUIRE(mlx.outcome.status.text == "ok");
    REQUIRE(mlx.outcome.row->peak_memory_bytes);
    CHECK(*mlx.outcome.row->peak_memory_bytes < 1e9);
    CHECK(mlx.outcome.row->peak_memory_bytes_samples.size() == 2);

    // A failed pair has no measurement, peak memory included.
    const auto fail = run(*suite, "stub-fail", "small", results);
    REQUIRE(fail.outcome.status.text == "FAIL:bench");
    CHECK_FALSE(fail.outcome.row->peak_memory_bytes);
    CHECK(fail.outcome.row->peak_memory_bytes_samples.empty());

    // And the samples survive the CSV.
    const auto csv = perfgate::read_results_csv((results / "rocm_strixhalo-gfx1151_2026-11-29_replay.csv").string());
    REQUIRE(csv);
    REQUIRE(csv->rows.size() == 3);
    CHECK(csv->rows[0].peak_memory_bytes == row.peak_memory_bytes);
    CHECK(csv->rows[0].peak_memory_bytes_samples == row.peak_memory_bytes_samples);
}

TEST_CASE("a timeout fails the pair and records FAIL:timeout", "[pair]") {
    auto suite = load_suite(test::data() / "stub-suite.json");
    REQUIRE(suite);
    const auto results = test::temp_dir("timeout");
    const auto hang = run(*suite, "stub-hang", "small", results);
    CHECK(hang.outcome.status.text == "FAIL:timeout");
    CHECK_THAT(hang.outcome.reason, Catch::Contains("during warmup"));
}

TEST_CASE("a host without the suite's backend skips without a row", "[pair]") {
    auto suite = load_suite(test::data() / "stub-suite.json");
    REQUIRE(suite);
    const auto results = test::temp_dir("backend");
    HostContext cpu = strix_halo_facts();
    cpu.backend = "cpu";
    const auto r = run(*suite, "stub-ok", "small", results, cpu);
    CHECK(r.outcome.status.text == "SKIP:no_backend");
    CHECK_THAT(r.outcome.reason, Catch::Contains("suite backend rocm is not available on this host (probe: cpu)"));
    CHECK(fs::is_empty(results));
}

TEST_CASE("input errors are errors, not statuses", "[pair]") {
    auto suite = load_suite(test::data() / "stub-suite.json");
    REQUIRE(suite);
    PairRequest req;
    req.runtime = "stub-ok";
    req.model = "nope";
    req.host = strix_halo_facts();
    std::ostringstream log, out;
    CHECK_FALSE(run_pair(*suite, req, log, out));
    req.model = "small";
    req.host.host = "bad_tag";
    req.results_dir = test::temp_dir("bad");
    CHECK_FALSE(run_pair(*suite, req, log, out));
}

TEST_CASE("argument templates", "[pair]") {
    SuiteRuntime rt;
    rt.kind = "llama-bench";
    rt.flags = {"-t", "2"};
    Workload w;
    const auto args = build_arguments(rt, w, "/m/x.gguf", "x", 3);
    CHECK(args == std::vector<std::string>{"-m", "/m/x.gguf", "-p", "512", "-n", "128", "-r", "3", "-o", "json",
                                           "--progress", "-t", "2"});
}

TEST_CASE("a command runtime gets the model's forge spec", "[pair]") {
    SuiteRuntime rt;
    rt.kind = "command";
    rt.args = {"--spec", "{forge_spec}", "-p", "{prompt_tokens}", "-r", "{repetitions}"};
    Workload w;
    w.prompt_tokens = 64;
    const auto args = build_arguments(rt, w, "/m/x.gguf", "x", 4, "/specs/x.json");
    CHECK(args == std::vector<std::string>{"--spec", "/specs/x.json", "-p", "64", "-r", "4"});
}

TEST_CASE("per-process repetitions: the prefill headline is the median of those that printed one", "[pair]") {
    const auto dir = test::temp_dir("prefill-gap");
    // Launch n prints decode 10n tok/s and prefill 100n tok/s, except launch 2, which prints no prefill.
    const std::string script = fmt::format(
        "n=$(cat {0}/count 2>/dev/null || echo 0); n=$((n + 1)); echo $n > {0}/count; echo prompt 50 tokens; "
        "echo decode $((10 * n)) tok/s; [ $n -eq 2 ] || echo prefill $((100 * n)) tok/s",
        dir.string());
    const std::string manifest = R"({"suite": "prefill-gap", "backend": "cpu",
        "workload": {"warmup": 0, "repetitions": 3, "cooldown_s": 0},
        "models": [{"name": "m", "checkpoint": "m.gguf", "weight_bytes": 1000}],
        "runtimes": [{"name": "sh", "kind": "command", "binary": "/bin/sh", "args": ["-c", ")" + script + R"("],
                      "patterns": {"decode_tok_s": "decode ([0-9.]+) tok/s", "prefill_tok_s": "prefill ([0-9.]+) tok/s",
                                   "prompt_tokens": "prompt ([0-9]+) tokens"}}]})";
    const auto suite = parse_suite(manifest, (dir / "prefill-gap.json").string(), dir);
    REQUIRE(suite);
    HostContext host;
    host.backend = "cpu";
    host.host = "test-host";
    host.date = "2026-11-29";
    const auto ran = run(*suite, "sh", "m", {}, host);
    REQUIRE(ran.outcome.status.text == "ok");
    const auto& row = *ran.outcome.row;
    CHECK(row.decode_tok_s_samples == std::vector<double>{10, 20, 30});
    CHECK(row.decode_tok_s == Approx(20));
    // Two readings of three: a headline from them, but no samples column that would not line up.
    CHECK(row.prefill_tok_s == Approx(200));
    CHECK(row.prefill_tok_s_samples.empty());
    CHECK(row.prefill_ms == Approx(250));  // 50 prompt tokens at 200 tok/s
}
