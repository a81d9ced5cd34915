// Instruction counting ("measure": "instructions", docs/instructions.md): cachegrind's output
// format against real files, the suite's keys, and pairs counted under the real valgrind on a stub
// runtime whose work grows with the workload.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <sstream>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/search_path.hpp"
#include "perfgate/perf/cachegrind.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "perfgate/perf/suite.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
namespace fs = std::filesystem;

namespace {

std::string cachegrind_fixture(const std::string& name) {
    return test::slurp(perfgate::test::fixture("cachegrind/" + name));
}

std::string suite_error(const std::string& text) {
    auto s = parse_suite(text, "suites/x.json", test::data());
    REQUIRE_FALSE(s);
    return s.error().message;
}

// A cpu suite of one counted runtime: the stub loops per token (`mode` work) or not (`same`).
std::string counted_suite(const std::string& mode, const std::string& extra = "") {
    return fmt::format(R"({{
  "suite": "counted",
  "backend": "cpu",
  "workload": {{"prompt_tokens": 20, "generated_tokens": 10, "warmup": 0, "repetitions": 1, "timeout_s": 120}},
  "models": [{{"name": "small", "checkpoint": "models/small", "format": "Q8_0", "weight_bytes": 1000}}],
  "runtimes": [
    {{"name": "counted", "kind": "llama-bench", "binary": "./stub-runtime.sh", "measure": "instructions"{},
     "args": ["{}", "{{prompt_tokens}}", "{{generated_tokens}}", "llama-bench-tiny-llama-ci.json"]}}
  ]
}})",
                       extra, mode);
}

HostContext cpu_host() {
    HostContext h;
    h.backend = "cpu";
    h.host = "stub-cpu";
    h.usable_memory_bytes = 8ull << 30;
    h.cpu_cores = 2;
    h.date = "2026-12-03";
    h.run_id = "counted-run";
    return h;
}

perfgate::Expected<PairOutcome> count_pair(const std::string& suite_text, const fs::path& results, std::string* log_text = nullptr) {
    auto suite = parse_suite(suite_text, (test::data() / "counted.json").string(), test::data());
    REQUIRE(suite);
    PairRequest req;
    req.runtime = "counted";
    req.model = "small";
    req.host = cpu_host();
    req.results_dir = results;
    std::ostringstream log, out;
    auto outcome = run_pair(*suite, req, log, out);
    if (log_text) *log_text = log.str();
    return outcome;
}

}  // namespace

TEST_CASE("cachegrind output: the totals of its summary line, from real files", "[instructions]") {
    auto plain = parse_cachegrind_out(cachegrind_fixture("true_cache-sim-no.cachegrind.out"), "a.out");
    REQUIRE(plain);
    CHECK(plain->command == "/bin/true");
    CHECK(plain->total("Ir") == 128652u);
    CHECK_FALSE(plain->total("D1mr"));

    auto simulated = parse_cachegrind_out(cachegrind_fixture("true_cache-sim-yes.cachegrind.out"), "b.out");
    REQUIRE(simulated);
    REQUIRE(simulated->totals.size() == 9);
    CHECK(simulated->total("Ir") == 128652u);
    CHECK(simulated->total("D1mr") == 1225u);
    CHECK(simulated->total("DLmw") == 311u);

    auto bench = parse_cachegrind_out(cachegrind_fixture("llama-bench_tiny-llama-ci_p0-n8.cachegrind.out"), "c.out");
    REQUIRE(bench);
    CHECK(bench->total("Ir") == 580143494u);
    CHECK_THAT(bench->command, Catch::Contains("llama-bench") && Catch::Contains("-n 8"));
}

TEST_CASE("cachegrind output: what is not one is an error naming the file and line", "[instructions]") {
    auto message = [](const std::string& text) {
        auto r = parse_cachegrind_out(text, "cg.out");
        REQUIRE_FALSE(r);
        return r.error().message;
    };
    CHECK_THAT(message("hello\n"), Catch::StartsWith("cg.out:1: cachegrind: no events: line"));
    CHECK_THAT(message("events: Ir\nfl=a.c\n1 2\n"), Catch::StartsWith("cg.out:3: cachegrind: no summary: line"));
    CHECK_THAT(message("desc: x\nevents: Ir Dr\nsummary: 5\n"),
               Catch::StartsWith("cg.out:3: cachegrind: the summary has 1 numbers for 2 events"));
    CHECK_THAT(message("events: Ir\nsummary: -5\n"), Catch::Contains("cg.out:2:") && Catch::Contains("'-5' of Ir is not a count"));
    CHECK_THAT(message("events: Ir\nsummary: 99999999999999999999999\n"), Catch::Contains("is not a count"));
    CHECK_THAT(message("summary: 5\n"), Catch::StartsWith("cg.out:1: cachegrind: summary: before any events: line"));
    CHECK_THAT(message("events: Ir\nevents: Ir\n"), Catch::StartsWith("cg.out:2: cachegrind: a second events: line"));
    CHECK_THAT(message("events: Ir I\x01y\nsummary: 1 2\n"), Catch::StartsWith("cg.out:1: cachegrind: 'I?y' is not an event name"));
}

TEST_CASE("suite: measure is time or instructions, counted on the CPU only", "[instructions][suite]") {
    auto counted = parse_suite(counted_suite("work"), "x.json", test::data());
    REQUIRE(counted);
    CHECK(counted->runtimes[0].measure == Measure::instructions);
    CHECK(counted->runtimes[0].valgrind == "valgrind");
    auto plain = parse_suite(counted_suite("work", R"(, "measure": "time")"), "x.json", test::data());
    CHECK_FALSE(plain);  // "measure" given twice
    CHECK_THAT(suite_error(R"({"suite": "x", "backend": "cpu", "models": [{"name": "m", "checkpoint": "m", "weight_bytes": 1}],
      "runtimes": [{"name": "r", "kind": "llama-bench", "binary": "b", "measure": "cycles"}]})"),
               Catch::Contains("suites/x.json:2:") && Catch::Contains("measure must be \"time\", \"instructions\" or \"serving\""));
    CHECK_THAT(suite_error(R"({"suite": "x", "backend": "rocm", "models": [{"name": "m", "checkpoint": "m", "weight_bytes": 1}],
      "runtimes": [{"name": "r", "kind": "llama-bench", "binary": "b", "measure": "instructions"}]})"),
               Catch::Contains("it needs a cpu suite (this one's backend is rocm)"));
    CHECK_THAT(suite_error(R"({"suite": "x", "backend": "cpu", "models": [{"name": "m", "checkpoint": "m", "weight_bytes": 1}],
      "runtimes": [{"name": "r", "kind": "llama-bench", "binary": "b", "valgrind": "/opt/valgrind"}]})"),
               Catch::Contains("\"valgrind\" is for a runtime with \"measure\": \"instructions\""));
    auto shipped = load_suite(test::source() / "perf/suites/cpu-instructions.json");
    REQUIRE(shipped);
    CHECK(shipped->runtimes[0].measure == Measure::instructions);
    CHECK(shipped->results_suffix == "instructions");
}

TEST_CASE("a counted pair: instructions per token by difference, under the real valgrind", "[instructions][pair]") {
    REQUIRE(perfgate::find_on_path("valgrind"));  // scripts/bootstrap installs it
    const auto results = test::temp_dir("counted");
    std::string log;
    auto outcome = count_pair(counted_suite("work"), results, &log);
    REQUIRE(outcome);
    INFO(log << outcome->reason);
    REQUIRE(outcome->status.text == "ok");
    const auto& row = *outcome->row;
    // The stub's loop runs 30 times per prompt token and 70 per generated token: the differences
    // of the three counted workloads see a per-token cost in that ratio; the fixed cost (start-up,
    // printing the output) cancels.
    REQUIRE(row.prefill_instructions_per_token);
    REQUIRE(row.decode_instructions_per_token);
    CHECK(*row.prefill_instructions_per_token > 0);
    CHECK(*row.decode_instructions_per_token / *row.prefill_instructions_per_token == Approx(70.0 / 30.0).epsilon(0.02));
    CHECK(row.prefill_instructions_per_token_samples.size() == 1);
    // Nothing timed: rates under valgrind are not the runtime's.
    CHECK_FALSE(row.decode_tok_s);
    CHECK_FALSE(row.prefill_tok_s);
    CHECK_FALSE(row.peak_memory_bytes);
    CHECK(row.contention == "off:instructions");
    // The base workload as valgrind ran it: the stub resolved to its path, one thread, and the kind's
    // counting flags (llama-bench: --no-warmup, whose warmup repeats the prompt).
    CHECK_THAT(row.command, Catch::StartsWith("valgrind --tool=cachegrind --cache-sim=no ") &&
                                Catch::Contains("stub-runtime.sh work 20 10 llama-bench-tiny-llama-ci.json") &&
                                Catch::EndsWith("-t 1 --no-warmup"));
    CHECK(row.warmup == 0);
    CHECK_THAT(log, Catch::Contains("counting instructions under cachegrind, workload 2/3 (twice the prompt: 40 prompt"));
    // Recorded, and read back with the same figures.
    auto file = perfgate::read_results_csv(outcome->csv.string());
    REQUIRE(file);
    REQUIRE(file->rows.size() == 1);
    CHECK(file->rows[0].decode_instructions_per_token == Approx(*row.decode_instructions_per_token));
    CHECK(file->rows[0].decode_instructions_samples() == row.decode_instructions_per_token_samples);

    // The same pair again counts the same (shell arithmetic under valgrind repeats exactly or nearly).
    auto again = count_pair(counted_suite("work"), results);
    REQUIRE(again);
    REQUIRE(again->row->decode_instructions_per_token);
    CHECK(*again->row->decode_instructions_per_token == Approx(*row.decode_instructions_per_token).epsilon(0.01));
}

TEST_CASE("a counted pair refuses a command line the workload does not change, and fails a runtime that fails",
          "[instructions][pair]") {
    REQUIRE(perfgate::find_on_path("valgrind"));
    const auto results = test::temp_dir("counted-errors");
    const std::string fixed = R"({
  "suite": "counted", "backend": "cpu",
  "workload": {"prompt_tokens": 20, "generated_tokens": 10, "warmup": 0, "repetitions": 1, "timeout_s": 60},
  "models": [{"name": "small", "checkpoint": "models/small", "weight_bytes": 1000}],
  "runtimes": [{"name": "counted", "kind": "llama-bench", "binary": "./stub-runtime.sh", "measure": "instructions",
               "args": ["print", "llama-bench-tiny-llama-ci.json"]}]
})";
    auto refused = count_pair(fixed, results);
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains("counted.json:5: runtime counted") &&
                                            Catch::Contains("{prompt_tokens} and {generated_tokens}"));

    // Work that does not grow with the workload: no per-token figure, the pair fails.
    auto flat = count_pair(counted_suite("same"), results);
    REQUIRE(flat);
    CHECK(flat->status.text == "FAIL:bench");
    CHECK_THAT(flat->reason, Catch::Contains("did not grow with the workload"));
    CHECK_FALSE(flat->row->decode_instructions_per_token);

    std::string failing = counted_suite("work");
    failing.replace(failing.find("\"work\""), 6, "\"fail\"");
    auto failed = count_pair(failing, results);
    REQUIRE(failed);
    CHECK(failed->status.text == "FAIL:bench");
    CHECK_THAT(failed->reason, Catch::Contains("under cachegrind (base workload)"));
    CHECK_THAT(failed->row->command, Catch::Contains("stub-runtime.sh fail 20 10"));  // a failed row says what ran


    std::string no_valgrind = counted_suite("work", R"(, "valgrind": "./no-such-valgrind")");
    auto missing = count_pair(no_valgrind, results);
    REQUIRE(missing);
    CHECK(missing->status.text == "FAIL:bench");
    CHECK_THAT(missing->reason, Catch::Contains("could not be started"));
}
