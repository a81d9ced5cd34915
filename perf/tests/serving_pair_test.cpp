// A serving pair end to end (docs/serving.md): the suite's "llama-server" runtime started on a free
// port, driven by the load generator, its figures recorded one sample per pass, and what the
// manifest may and may not say about a serving load. The server is fake_completion_server (known
// timing), given as the runtime's binary with its own arguments.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/method_marks.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "perfgate/serving/server_address.hpp"
#include "perfgate/serving/server_process.hpp"
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

// Runs the suite's one pair, which must end ok with one recorded row, and returns that row.
ResultRow the_recorded_row(const Suite& suite, const fs::path& dir, std::ostringstream& log) {
    auto outcome = run_the_pair(suite, dir, log);
    REQUIRE(outcome);
    INFO(log.str());
    REQUIRE(outcome->status.text == "ok");
    auto file = read_results_csv(outcome->csv.string());
    REQUIRE(file);
    REQUIRE(file->rows.size() == 1);
    return file->rows[0];
}

}  // namespace

TEST_CASE("serving pair: the server driven at its concurrency, one sample per pass, recorded", "[pair][serving]") {
    const auto dir = perf::test::temp_dir("serving-pair");
    auto suite = suite_in(dir, suite_json(R"(["--port", "{port}", "--ttft-ms", "20", "--itl-ms", "5"])"));
    REQUIRE(suite);
    std::ostringstream log;
    const auto row = the_recorded_row(*suite, dir, log);
    CHECK_THAT(log.str(), Catch::Contains("4 requests per pass at concurrency 2") && Catch::Contains("warmup 1") &&
                              Catch::Contains("pass 2"));
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

    // A server whose usage claims 9e18 tokens: no rate of 7e21 tok/s is recorded (issue 48 item 14).
    auto inflated = suite_in(dir / "inflated", suite_json(R"(["--port", "{port}", "--usage-tokens", "9000000000000000000"])"));
    REQUIRE(inflated);
    auto i = run_pair(*inflated, req, log, out);
    REQUIRE(i);
    CHECK(i->status.text == "FAIL:bench");
    CHECK_THAT(i->reason, Catch::Contains("is no reading") && Catch::Contains("usage.completion_tokens"));

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
    const auto row = the_recorded_row(*suite, dir, log);
    CHECK(row.runtime == "server-c2");
    REQUIRE(row.ttft_p50_ms);
    CHECK(*row.ttft_p50_ms >= 10.0);
    CHECK(row.itl_p50_ms_samples.size() == 2);

    // Without {port} in its arguments it could not be reached: refused when the suite is read.
    auto unreachable = suite_in(dir / "no-port", suite_json(R"(["--port", "8000"])", "", "openai-server"));
    REQUIRE_FALSE(unreachable);
    CHECK_THAT(unreachable.error().message,
               Catch::Contains("serving-test.json:") && Catch::Contains("needs \"args\" that start the server on {port}"));
}

TEST_CASE("serving pair: a sweep's points run their own concurrency and prompt, and their rows name the sweep",
          "[pair][serving][sweep]") {
    const auto dir = perf::test::temp_dir("serving-sweep");
    const std::string args = R"(["--port", "{port}", "--ttft-ms", "5", "--itl-ms", "2"])";
    auto suite = suite_in(dir, R"({"suite": "serving-sweep", "backend": "cpu",
      "workload": {"prompt_tokens": 16, "generated_tokens": 4, "warmup": 0, "repetitions": 1, "timeout_s": 60},
      "models": [{"name": "m", "checkpoint": "model.gguf", "format": "Q8_0", "weight_bytes": 1000000}],
      "runtimes": [
        {"name": "server", "kind": "llama-server", "binary": "unused", "args": )" + args + R"(, "requests": 4,
         "sweep": {"concurrency": [1, 2]}},
        {"name": "long", "kind": "llama-server", "binary": "unused", "args": )" + args + R"(, "requests": 2,
         "sweep": {"prompt_tokens": [8, 24]}}]})");
    REQUIRE(suite);
    REQUIRE(suite->pairs.size() == 4);
    const auto run_point = [&](const std::string& runtime) {
        PairRequest req;
        req.runtime = runtime;
        req.model = "m";
        req.host = cpu_host();
        req.results_dir = dir / "results";
        // Given for the entry: every point runs it.
        req.binaries[suite->find_runtime(runtime)->sweep->entry] = PERFGATE_FAKE_COMPLETION_SERVER;
        std::ostringstream log, out;
        auto outcome = run_pair(*suite, req, log, out);
        REQUIRE(outcome);
        INFO(log.str());
        REQUIRE(outcome->status.text == "ok");
        auto file = read_results_csv(outcome->csv.string());
        REQUIRE(file);
        for (const auto& row : file->rows)
            if (row.runtime == runtime) return std::make_pair(row, log.str());
        FAIL("no row of " << runtime);
        return std::make_pair(ResultRow{}, std::string());
    };
    const auto [c2, c2_log] = run_point("server-c2");
    CHECK(c2.batch == 2);
    CHECK(c2.prompt_target_len == 16);
    CHECK_THAT(c2_log, Catch::Contains("4 requests per pass at concurrency 2"));
    CHECK(c2.flags == "perfgate.load=requests:4,output-spread:0.5 perfgate.sweep=server:concurrency");
    const auto [p24, p24_log] = run_point("long-p24");
    CHECK(p24.prompt_target_len == 24);  // the point's prompt, not the suite's 16
    CHECK(p24.batch == 1);
    CHECK(p24.flags == "perfgate.load=requests:2,output-spread:0.5 perfgate.sweep=long:prompt_tokens");
    auto sweep = perfgate::sweep_of(p24.flags);
    REQUIRE(sweep);
    CHECK(perfgate::sweep_value(p24, sweep->axis) == 24);
}

TEST_CASE("serving pair: a server that is already running is driven by its URL, and left running",
          "[pair][serving][url]") {
    const auto dir = perf::test::temp_dir("serving-url");
    serving::ServerLaunch launch;
    launch.program = PERFGATE_FAKE_COMPLETION_SERVER;
    launch.args = {"--port", "{port}", "--ttft-ms", "5", "--itl-ms", "2"};
    auto server = serving::start_server(launch);
    REQUIRE(server);
    const std::string url = "http://127.0.0.1:" + std::to_string((*server)->port());
    // No checkpoint on this host is read: the server holds its model.
    auto suite = suite_in(dir, R"({"suite": "serving-url", "backend": "cpu",
      "workload": {"prompt_tokens": 16, "generated_tokens": 4, "warmup": 0, "repetitions": 2, "timeout_s": 30},
      "models": [{"name": "m", "checkpoint": "served-elsewhere"}],
      "runtimes": [{"name": "server-c2", "kind": "openai-server", "url": ")" + url + R"(", "concurrency": 2,
                    "requests": 4}]})");
    REQUIRE(suite);
    std::ostringstream log;
    const auto row = the_recorded_row(*suite, dir, log);
    CHECK_THAT(log.str(), Catch::Contains("already running: not started by perfgate"));
    CHECK(row.command == url);
    CHECK(row.ttft_p50_ms_samples.size() == 2);
    CHECK_FALSE(row.model_bytes);
    CHECK(serving::healthy({"127.0.0.1", (*server)->port()}, "/health"));  // still running: not perfgate's to stop
    (*server)->stop();
    // Stopped, the same pair fails within its bound, naming the URL.
    auto gone = run_the_pair(*suite, dir, log);
    REQUIRE(gone);
    CHECK(gone->status.text == "FAIL:bench");
    CHECK_THAT(gone->reason, Catch::Contains("did not answer 200 on /health"));
}

TEST_CASE("serving suites: a url is a running server, so nothing that would start one is taken", "[suite][serving][url]") {
    const auto dir = perf::test::temp_dir("serving-url-suite");
    const auto runtime_suite = [](const std::string& runtime) {
        return R"({"suite": "u", "backend": "cpu",
          "models": [{"name": "m", "checkpoint": "model.gguf", "weight_bytes": 1}],
          "runtimes": [)" + runtime + "]}";
    };
    const auto refused = [&](const std::string& runtime) {
        auto s = suite_in(dir, runtime_suite(runtime));
        REQUIRE_FALSE(s);
        return s.error().message;
    };
    CHECK_THAT(refused(R"({"name": "s", "kind": "openai-server", "url": "http://127.0.0.1:8000", "binary": "vllm"})"),
               Catch::Contains("\"binary\" has no use"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "openai-server", "url": "http://127.0.0.1:8000", "args": ["x"]})"),
               Catch::Contains("\"args\" has no use"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "openai-server", "url": "https://127.0.0.1:8000"})"),
               Catch::StartsWith("serving-test.json:3:") && Catch::Contains("only http://"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "llama-bench", "url": "http://127.0.0.1:8000"})"),
               Catch::Contains("\"url\" is for a runtime with \"measure\": \"serving\""));
    CHECK_THAT(refused(R"({"name": "s", "kind": "openai-server", "binary": "vllm", "args": ["serve"]})"),
               Catch::Contains("or the \"url\" of a server that is already running"));
    auto ok = suite_in(dir, runtime_suite(R"({"name": "s", "kind": "llama-server", "url": "http://localhost:8080"})"));
    REQUIRE(ok);
    CHECK(ok->runtimes[0].serving.url == "http://localhost:8080");
    CHECK(ok->runtimes[0].binary.empty());
}
