// perfgate ab refuses what cannot work before anything runs (issue 25 item 4): rounds too few to
// decide anything, a binary that is not there; and a run that decided nothing is not a PASS.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "perfgate/core/metric.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "perfgate/perf/suite.hpp"
#include "perfgate/runner/ab.hpp"
#include "perfgate/runner/ab_render.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;
using namespace perfgate::runner;

namespace {

perf::HostContext stub_host() {
    perf::HostContext host;
    host.backend = "cpu";
    host.host = "stub-host";
    return host;
}

}  // namespace

TEST_CASE("A/B rounds: too few to decide are refused with the fewest that would do", "[runner][ab]") {
    const auto two = check_ab_rounds({2, 2}, 0.01);
    REQUIRE_FALSE(two);
    CHECK(two.error().message.find("--max-rounds 2") != std::string::npos);
    CHECK(two.error().message.find("use --max-rounds 4 or more") != std::string::npos);
    CHECK_FALSE(check_ab_rounds({3, 3}, 0.01));
    CHECK(check_ab_rounds({3, 4}, 0.01));   // the ab self-test's rounds
    CHECK(check_ab_rounds({5, 10}, 0.01));  // the defaults
    CHECK_FALSE(check_ab_rounds({6, 5}, 0.01));
    // A looser alpha narrows the interval: 3 rounds can decide at 20%.
    CHECK(check_ab_rounds({3, 3}, 0.2));
    // The rate is split over the metrics the runtime measures: a timed run's 3, a counted run's 2;
    // never a metric only other tools' files carry (llama-bench's -pg rate), nor one not gated.
    perf::SuiteRuntime timed;
    timed.kind = "llama-bench";
    CHECK(ab_metrics(timed) == std::vector<std::string>{"decode_tok_s", "prefill_tok_s", "peak_memory_bytes"});
    perf::SuiteRuntime counted = timed;
    counted.measure = perfgate::Measure::instructions;
    CHECK(ab_metrics(counted) ==
          std::vector<std::string>{"prefill_instructions_per_token", "decode_instructions_per_token"});
    CHECK(perfgate::find_metric("prompt_gen_tok_s")->gated);  // gated when read from a file
    const auto measurable = perf::measurable_metrics(timed);
    CHECK(std::find(measurable.begin(), measurable.end(), "prompt_gen_tok_s") == measurable.end());
    CHECK(std::find(measurable.begin(), measurable.end(), "peak_device_memory_bytes") != measurable.end());
    // The factor behind the rule: 2 rounds at the last look's level span [-100%, >+1000%] at 1%.
    CHECK(gates::interval_half_width_factor(0.994, 2) > 50);
    CHECK(gates::interval_half_width_factor(0.994, 10) < 1.5);
}

TEST_CASE("A/B: a missing binary is an error before any arm runs", "[runner][ab]") {
    auto suite = perf::load_suite(test::source_path("perf/tests/data/stub-cpu-suite.json"));
    REQUIRE(suite);
    const auto host = stub_host();
    test::TempDir dir("ab-checks");
    AbRequest r;
    r.runtime = "stubcpu-ok";
    r.base_binary = "/bin/sh";
    r.head_binary = (dir.path / "absent" / "llama-bench").string();
    r.results_dir = dir.path / "results";
    r.contention = perf::ContentionMode::off;
    std::ostringstream log;
    auto report = run_ab(*suite, host, r, log);
    REQUIRE_FALSE(report);
    CHECK(report.error().message.find("--head-binary stubcpu-ok=") != std::string::npos);
    CHECK(report.error().message.find("no executable file there") != std::string::npos);
    CHECK(log.str().empty());  // nothing was launched
    CHECK_FALSE(std::filesystem::exists(r.results_dir));

    r.head_binary = "perfgate-no-such-binary";
    report = run_ab(*suite, host, r, log);
    REQUIRE_FALSE(report);
    CHECK(report.error().message.find("not found on PATH") != std::string::npos);
}

TEST_CASE("A/B: a running server (a url) is refused before anything runs", "[runner][ab][url]") {
    auto suite = perf::parse_suite(R"({"suite": "u", "backend": "cpu",
      "models": [{"name": "m", "checkpoint": "m.gguf", "weight_bytes": 1}],
      "runtimes": [{"name": "staging", "kind": "openai-server", "url": "http://127.0.0.1:8000"}]})",
                                   "u.json", "/base");
    REQUIRE(suite);
    const auto host = stub_host();
    test::TempDir dir("ab-url");
    AbRequest r;
    r.runtime = "staging";
    r.base_binary = "/bin/sh";
    r.head_binary = "/bin/sh";
    r.results_dir = dir.path / "results";
    r.contention = perf::ContentionMode::off;
    std::ostringstream log;
    auto report = run_ab(*suite, host, r, log);
    REQUIRE_FALSE(report);
    CHECK(report.error().message ==
          "u.json: runtime \"staging\" is a running server (http://127.0.0.1:8000): perfgate ab starts a base and a head "
          "build, and cannot start one there");
    CHECK(log.str().empty());
}

TEST_CASE("A/B: a model that decided nothing prints INCONCLUSIVE, not PASS", "[runner][ab]") {
    AbReport r;
    r.runtime = "llama-bench";
    r.host = "h";
    r.levels = {1, 0.994, 0.994};
    r.stop = {4, 4};
    AbModelResult m;
    m.model = "tiny";
    m.runtime = "llama-bench";
    m.rounds = 4;
    // Rounds that scatter by 10%: no verdict either way against a 5% floor.
    m.checks.push_back(gates::decide_paired("decode_tok_s", {100, 100, 100, 100}, {90, 110, 95, 108}, 0.05, 0.994, 0.90));
    REQUIRE(m.checks[0].verdict == gates::Verdict::inconclusive);
    m.verdict = gates::Verdict::inconclusive;
    r.models.push_back(m);
    CHECK(ab_outcome(r) == Outcome::pass);  // exit 0: nothing regressed
    const auto text = render_ab(r, AbFormat::text);
    CHECK(text.find("ab: INCONCLUSIVE (1 of 1 model") != std::string::npos);
    CHECK(text.find("ab: PASS") == std::string::npos);
    CHECK(render_ab(r, AbFormat::markdown).find("**ab: INCONCLUSIVE") != std::string::npos);
    CHECK(nlohmann::json::parse(render_ab(r, AbFormat::json))["result"] == "inconclusive");
}
