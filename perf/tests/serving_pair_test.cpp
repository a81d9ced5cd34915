// A serving pair end to end (docs/serving.md): the suite's "llama-server" runtime started on a free
// port, driven by the load generator, its figures recorded one sample per pass, and what the
// manifest may and may not say about a serving load. The server is fake_completion_server (known
// timing), given as the runtime's binary with its own arguments.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "perfgate/core/csv.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "test_support.hpp"

using namespace perfgate;
using namespace perfgate::perf;
namespace fs = std::filesystem;

namespace {

HostContext cpu_host() {
    HostContext h;
    h.backend = "cpu";
    h.host = "cpu-serving-test";
    h.device = "test CPU";
    h.usable_memory_bytes = 8ull << 30;
    h.date = "2026-12-04";
    h.run_id = "serving-test-run";
    return h;
}

std::string suite_json(const std::string& server_args, const std::string& extra_runtime_keys = "",
                       const std::string& kind = "llama-server") {
    return R"({"suite": "serving-test", "backend": "cpu",
      "workload": {"prompt_tokens": 16, "generated_tokens": 6, "warmup": 1, "repetitions": 2, "timeout_s": 60},
      "models": [{"name": "m", "checkpoint": "model.gguf", "format": "Q8_0", "weight_bytes": 1000000}],
      "runtimes": [{"name": "server-c2", "kind": ")" + kind + R"(", "binary": ")" PERFGATE_FAKE_COMPLETION_SERVER R"(",
                    "args": )" + server_args + R"(, "concurrency": 2, "requests": 4)" + extra_runtime_keys + R"(}]})";
}

Expected<Suite> suite_in(const fs::path& dir, const std::string& text) {
    fs::create_directories(dir);
    std::ofstream(dir / "model.gguf") << "not read by the fake server";
    return parse_suite(text, "serving-test.json", dir);
}

// Runs the suite's one pair, recording under `dir`.
Expected<PairOutcome> run_the_pair(const Suite& suite, const fs::path& dir, std::ostringstream& log) {
    PairRequest req;
    req.runtime = "server-c2";
    req.model = "m";
    req.host = cpu_host();
    req.results_dir = dir / "results";
    std::ostringstream out;
    return run_pair(suite, req, log, out);
}

}  // namespace

TEST_CASE("serving pair: the server driven at its concurrency, one sample per pass, recorded", "[pair][serving]") {
    const auto dir = perf::test::temp_dir("serving-pair");
    auto suite = suite_in(dir, suite_json(R"(["--port", "{port}", "--ttft-ms", "20", "--itl-ms", "5"])"));
    REQUIRE(suite);
    std::ostringstream log;
    auto outcome = run_the_pair(*suite, dir, log);
    REQUIRE(outcome);
    INFO(log.str());
    REQUIRE(outcome->status.text == "ok");
    CHECK_THAT(log.str(), Catch::Contains("4 requests per pass at concurrency 2") && Catch::Contains("warmup 1") &&
                              Catch::Contains("pass 2"));
    auto file = read_results_csv(outcome->csv.string());
    REQUIRE(file);
    REQUIRE(file->rows.size() == 1);
    const ResultRow& row = file->rows.front();
    CHECK(row.batch == 2);  // the load's concurrency keeps the pair apart from other concurrencies
    CHECK(row.ttft_p50_ms_samples.size() == 2);
    CHECK(row.serving_output_tok_s_samples.size() == 2);
    REQUIRE(row.ttft_p50_ms);
    CHECK(*row.ttft_p50_ms >= 20.0);  // never earlier than the server waited
    REQUIRE(row.tpot_p50_ms);
    CHECK(*row.tpot_p50_ms >= 4.0);
    REQUIRE(row.itl_p99_ms);
    CHECK(*row.itl_p99_ms >= *row.itl_p50_ms);
    CHECK(row.serving_output_tok_s > 0);
    CHECK_FALSE(row.decode_tok_s);  // no offline rate: a serving row has its own figures
    CHECK(row.generated_tokens == 6);
    CHECK_THAT(row.command, Catch::Contains("--port {port}"));
}

TEST_CASE("serving pair: failed requests or a server that never starts fail the pair, saying why", "[pair][serving]") {
    const auto dir = perf::test::temp_dir("serving-pair-fail");
    PairRequest req;
    req.runtime = "server-c2";
    req.model = "m";
    req.host = cpu_host();
    std::ostringstream log, out;
    auto refused = suite_in(dir / "refused", suite_json(R"(["--port", "{port}", "--fail-status", "503"])"));
    REQUIRE(refused);
    auto r = run_pair(*refused, req, log, out);
    REQUIRE(r);
    CHECK(r->status.text == "FAIL:requests");
    CHECK_THAT(r->reason, Catch::Contains("4 of 4 requests failed") && Catch::Contains("HTTP 503"));

    auto broken = suite_in(dir / "broken", suite_json(R"(["--no-such-flag", "1"])"));
    REQUIRE(broken);
    auto b = run_pair(*broken, req, log, out);
    REQUIRE(b);
    CHECK(b->status.text == "FAIL:bench");
    CHECK_THAT(b->reason, Catch::Contains("exited") && Catch::Contains("unknown flag"));
}

TEST_CASE("serving suites: the load's keys belong to servers, and a server is measured serving", "[suite][serving]") {
    const auto dir = perf::test::temp_dir("serving-suite");
    const auto error_of = [&](const std::string& text) {
        auto s = suite_in(dir, text);
        REQUIRE_FALSE(s);
        return s.error().message;
    };
    CHECK_THAT(error_of(suite_json(R"(["--port", "{port}"])", R"(, "measure": "time")")),
               Catch::Contains("is a server: its measure is \"serving\""));
    CHECK_THAT(error_of(R"({"suite": "s", "backend": "cpu", "models": [{"name": "m", "checkpoint": "model.gguf", "weight_bytes": 1}],
                          "runtimes": [{"name": "b", "kind": "llama-bench", "binary": "llama-bench", "concurrency": 2}]})"),
               Catch::Contains("\"concurrency\" is for a runtime with \"measure\": \"serving\""));
    std::string fewer = suite_json(R"(["--port", "{port}"])");
    fewer.replace(fewer.find("\"requests\": 4"), 13, "\"requests\": 1");
    CHECK_THAT(error_of(fewer), Catch::Contains("requests must be at least the concurrency"));
    CHECK_THAT(error_of(suite_json(R"(["--port", "{port}"])", R"(, "endpoint": "v1/completions")")),
               Catch::Contains("starting with '/'"));
    // The shipped suite reads, both runtimes serving, at concurrency 1 and 4.
    auto shipped = load_suite(fs::path(PERFGATE_SOURCE_DIR) / "perf/suites/cpu-serving.json");
    REQUIRE(shipped);
    REQUIRE(shipped->runtimes.size() == 2);
    CHECK(shipped->runtimes[0].measure == Measure::serving);
    CHECK(shipped->runtimes[0].serving.concurrency == 1);
    CHECK(shipped->runtimes[1].serving.concurrency == 4);
}

TEST_CASE("serving pair: any OpenAI-compatible server by its own launch (kind openai-server)", "[pair][serving]") {
    const auto dir = perf::test::temp_dir("serving-openai");
    auto suite = suite_in(dir, suite_json(R"(["--port", "{port}", "--ttft-ms", "10", "--itl-ms", "3"])", "", "openai-server"));
    REQUIRE(suite);
    CHECK(suite->runtimes[0].measure == Measure::serving);  // the kind's default: a server
    std::ostringstream log;
    auto outcome = run_the_pair(*suite, dir, log);
    REQUIRE(outcome);
    INFO(log.str());
    REQUIRE(outcome->status.text == "ok");
    auto file = read_results_csv(outcome->csv.string());
    REQUIRE(file);
    REQUIRE(file->rows.size() == 1);
    CHECK(file->rows[0].runtime == "server-c2");
    REQUIRE(file->rows[0].ttft_p50_ms);
    CHECK(*file->rows[0].ttft_p50_ms >= 10.0);
    CHECK(file->rows[0].itl_p50_ms_samples.size() == 2);

    // Without {port} in its arguments it could not be reached: refused when the suite is read.
    auto unreachable = suite_in(dir / "no-port", suite_json(R"(["--port", "8000"])", "", "openai-server"));
    REQUIRE_FALSE(unreachable);
    CHECK_THAT(unreachable.error().message,
               Catch::Contains("serving-test.json:") && Catch::Contains("needs \"args\" that start the server on {port}"));
}
