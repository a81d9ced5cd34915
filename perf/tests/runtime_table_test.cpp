// The runtime table (runtime_adapter.hpp): the shipped kinds' rows, and a kind added the way
// docs/development.md's "How to add a runtime" says: its adapter and one row, nothing else.
#include <catch2/catch.hpp>
#include <set>
#include <sstream>

#include "perfgate/core/csv.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "test_support.hpp"

using namespace perfgate;
using namespace perfgate::perf;

TEST_CASE("runtime table: the shipped kinds, their probe queries and aliases", "[runtime-table]") {
    CHECK(runtime_kind_names() == "llama-bench, llama-server, mlxcel, mlx-lm, catch2, command, openai-server");
    CHECK(probe_runtime_names() == "llama-bench, llama-server, mlxcel, mlx-lm, catch2, command, openai-server, llama.cpp, llama-cpp");
    CHECK(*find_probe_query("llama-bench") == probes::RuntimeQuery::llama_cpp_devices);
    CHECK(*find_probe_query("llama.cpp") == probes::RuntimeQuery::llama_cpp_devices);
    CHECK(*find_probe_query("mlxcel") == probes::RuntimeQuery::mlxcel_generate);
    CHECK(*find_probe_query("command") == probes::RuntimeQuery::none);
    for (const char* bad : {"llamabench", "LLAMA-BENCH", ""}) {
        auto query = find_probe_query(bad);
        REQUIRE_FALSE(query);
        CHECK(query.error().message == "unknown runtime kind \"" + std::string(bad) + "\"; valid kinds: " + probe_runtime_names());
    }
    std::set<std::string> format_names;
    for (const auto& a : runtime_adapters()) {
        INFO(a.name);
        CHECK_FALSE(a.metrics.empty());
        if (a.measure == Measure::serving) {
            // A server prints nothing perfgate reads: the load generator measures it.
            CHECK(a.formats.empty());
            CHECK(a.metrics.front() == "serving_output_tok_s");
        } else {
            CHECK_FALSE(a.formats.empty());
            CHECK(a.metrics.front() == "decode_tok_s");  // the headline every timed kind yields
        }
        for (const auto& f : a.formats) CHECK(format_names.insert(f.name).second);  // "output" names one format
        CHECK((a.own_warmups == 0 || a.in_process_repetitions));
    }
    CHECK(find_runtime_adapter("llama-bench")->in_process_repetitions);
    CHECK_FALSE(find_runtime_adapter("mlxcel")->in_process_repetitions);
    CHECK(find_runtime_adapter("vllm") == nullptr);
}

namespace {

int sample_parses = 0;  // how often the sample's parser ran: the pair used it, not another

// The sample kind: its whole adapter. It is a shell that prints one line in the sample's own
// format, built from its default arguments (the placeholders filled).
RuntimeAdapter sample_runtime() {
    RuntimeAdapter a;
    a.name = "sample";
    a.default_args = {"-c", "echo 'sample: {generated_tokens} tokens at 41.5 tok/s'"};
    a.formats = {{"sample-text", [](const RunOutput& o) -> Expected<Measurement> {
                      ++sample_parses;
                      const auto at = o.merged.find(" tokens at ");
                      if (o.merged.rfind("sample: ", 0) != 0 || at == std::string_view::npos)
                          return make_error("sample-text: no \"sample: N tokens at X tok/s\" line");
                      Measurement m;
                      m.generated_tokens = std::stoll(std::string(o.merged.substr(8, at - 8)));
                      m.decode_tok_s = std::stod(std::string(o.merged.substr(at + 11)));
                      return m;
                  }}};
    a.metrics = {"decode_tok_s"};
    return a;
}

// The table row, taken out again at the end so that other tests see the shipped table.
struct SampleRow {
    SampleRow() { REQUIRE(register_runtime_adapter(sample_runtime())); }
    ~SampleRow() { unregister_runtime_adapter("sample"); }
};

const char* kSampleSuite = R"({
  "suite": "sample",
  "backend": "cpu",
  "workload": {"prompt_tokens": 16, "generated_tokens": 7, "warmup": 1, "repetitions": 2, "timeout_s": 20},
  "models": [{"name": "m", "checkpoint": "m.gguf", "weight_bytes": 1000}],
  "runtimes": [{"name": "s", "kind": "sample", "binary": "/bin/sh"}]
})";

}  // namespace

TEST_CASE("a runtime added as its adapter and one table row: its suites parse, its pairs run with its parser", "[runtime-table][pair]") {
    CHECK_FALSE(parse_suite(kSampleSuite, "sample.json", "."));  // not a kind before its row
    {
        const SampleRow row;
        CHECK_THAT(runtime_kind_names(), Catch::EndsWith(", command, openai-server, sample"));
        CHECK(find_probe_query("sample"));  // the probe accepts it too (it cannot name a device)
        CHECK_FALSE(register_runtime_adapter(sample_runtime()));  // one row per name
        auto suite = parse_suite(kSampleSuite, "sample.json", ".");
        REQUIRE(suite);
        CHECK(suite->runtimes[0].kind == "sample");
        CHECK_FALSE(suite->runtimes[0].in_process_repetitions);  // the adapter's default: one launch each

        HostContext host;
        host.backend = "cpu";
        host.host = "sample-host";
        host.usable_memory_bytes = 1ull << 30;
        host.date = "2026-12-02";
        host.run_id = "sample-run";
        PairRequest req;
        req.runtime = "s";
        req.model = "m";
        req.host = host;
        req.results_dir = perf::test::temp_dir("sample-runtime");
        std::ostringstream log, out;
        sample_parses = 0;
        auto outcome = run_pair(*suite, req, log, out);
        REQUIRE(outcome);
        INFO(log.str());
        CHECK(outcome->status.text == "ok");
        CHECK(sample_parses == 3);  // one warmup and two repetitions, each read by the sample's parser
        REQUIRE(outcome->row);
        CHECK(outcome->row->decode_tok_s == Approx(41.5));
        CHECK(outcome->row->decode_tok_s_samples == std::vector<double>{41.5, 41.5});
        CHECK(outcome->row->generated_tokens == 7);  // {generated_tokens} filled in its default arguments
        CHECK(outcome->row->warmup == 1);
        CHECK_THAT(outcome->row->command, Catch::Contains("/bin/sh -c echo 'sample: 7 tokens at 41.5 tok/s'"));
    }
    CHECK(find_runtime_adapter("sample") == nullptr);  // the row is gone again
    CHECK(runtime_kind_names() == "llama-bench, llama-server, mlxcel, mlx-lm, catch2, command, openai-server");
}
