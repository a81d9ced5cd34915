#include <catch2/catch.hpp>

#include <sstream>

#include "cpu_threads.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;

TEST_CASE("cpu threads: one core left free on small hosts, every core on larger ones", "[threads]") {
    CHECK(default_cpu_threads(1) == 1);
    CHECK(default_cpu_threads(2) == 1);
    CHECK(default_cpu_threads(3) == 2);
    CHECK(default_cpu_threads(4) == 3);
    CHECK(default_cpu_threads(5) == 5);
    CHECK(default_cpu_threads(64) == 64);
    CHECK(default_cpu_threads(0) == 1);
}

TEST_CASE("cpu threads: only a measured llama-bench of a cpu suite without -t gets the default", "[threads]") {
    Suite suite;
    suite.backend = "cpu";
    SuiteRuntime rt;
    rt.kind = "llama-bench";
    HostContext host;
    host.cpu_cores = 2;
    CHECK(default_thread_flags(suite, rt, host) == std::vector<std::string>{"-t", "1"});
    host.cpu_cores = 16;
    CHECK(default_thread_flags(suite, rt, host) == std::vector<std::string>{"-t", "16"});

    SuiteRuntime own = rt;
    own.flags = {"-t", "4"};
    CHECK(default_thread_flags(suite, own, host).empty());
    own.flags = {};
    own.args = {"-m", "{model_path}", "--threads", "3"};
    CHECK(default_thread_flags(suite, own, host).empty());

    SuiteRuntime mlx = rt;
    mlx.kind = "mlxcel";
    CHECK(default_thread_flags(suite, mlx, host).empty());
    Suite gpu = suite;
    gpu.backend = "rocm";
    CHECK(default_thread_flags(gpu, rt, host).empty());
    Suite replay = suite;
    replay.replay = true;
    CHECK(default_thread_flags(replay, rt, host).empty());
    HostContext unknown;
    CHECK(default_thread_flags(suite, rt, unknown).empty());
}

TEST_CASE("cpu threads: the chosen -t is in the row's flags and command", "[threads][pair]") {
    auto suite = parse_suite(R"({
      "suite": "threads", "backend": "cpu",
      "workload": {"repetitions": 1, "timeout_s": 10},
      "models": [{"name": "tiny", "checkpoint": "models/tiny", "format": "Q8_0", "weight_bytes": 1000}],
      "runtimes": [{"name": "lb", "kind": "llama-bench", "binary": "./stub-runtime.sh",
                    "args": ["print", "llama-bench-tiny-llama-ci.json"]}]
    })", "threads.json", test::data());
    REQUIRE(suite);
    PairRequest req;
    req.runtime = "lb";
    req.model = "tiny";
    req.host.backend = "cpu";
    req.host.host = "cpu-epyc";
    req.host.usable_memory_bytes = 1ull << 30;
    req.host.cpu_cores = 2;
    req.host.date = "2026-11-29";
    std::ostringstream log, out;
    auto o = run_pair(*suite, req, log, out);
    REQUIRE(o);
    REQUIRE(o->row);
    CHECK(o->row->flags == "-t 1");
    CHECK_THAT(o->row->command, Catch::EndsWith("print llama-bench-tiny-llama-ci.json -t 1"));
    CHECK_THAT(log.str(), Catch::Contains("-t 1 (the default for a host with 2 usable cores; the suite sets no -t)"));
}
