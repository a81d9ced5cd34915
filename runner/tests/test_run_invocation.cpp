// perfgate run as one library call (runner/run_invocation.hpp): each mode, and its bad input as
// errors. The pairs themselves are run by the perf self-tests through the real executable.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "perfgate/runner/run_invocation.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;
using namespace perfgate::runner;

namespace {

RunInvocation stub_suite() {
    RunInvocation run;
    run.suite = test::source_path("perf/tests/data/stub-suite.json");
    run.request.results_dir.clear();
    return run;
}

// The stub suite with its host facts written to `dir`/host.json from a replayed Strix Halo (the
// suite's own recording): nothing is probed on this machine.
RunInvocation stub_suite_on_replayed_host(const std::filesystem::path& dir) {
    RunInvocation setup = stub_suite();
    setup.write_host = dir / "host.json";
    setup.host.sysroot = test::source_path("probes/tests/data/machines/strixhalo-64g-rocminfo/root").string();
    setup.host.tool_path = test::source_path("probes/tests/data/machines/strixhalo-64g-rocminfo/bin").string();
    std::ostringstream sink;
    auto written = run_invocation(setup, sink, sink);
    REQUIRE(written);
    REQUIRE(*written == Outcome::pass);
    RunInvocation run = stub_suite();
    run.host.host_json = setup.write_host;
    return run;
}

}  // namespace

TEST_CASE("run --list prints every pair of the suite and measures nothing", "[run-invocation]") {
    RunInvocation run = stub_suite();
    run.list = true;
    std::ostringstream out, log;
    auto outcome = run_invocation(run, out, log);
    REQUIRE(outcome);
    CHECK(*outcome == Outcome::pass);
    CHECK_THAT(out.str(), Catch::StartsWith("stub-ok/small\nstub-ok/big60\nstub-ok/huge110\n"));
    CHECK(log.str().empty());
}

TEST_CASE("run: a bad --binary, --contention or --pair is an error naming the option", "[run-invocation]") {
    RunInvocation run = stub_suite_on_replayed_host(test::fresh_dir("perfgate-runner-tests", "run-invocation"));
    std::ostringstream out, log;
    SECTION("binary") {
        run.binaries = {"no-equals-sign"};
        auto outcome = run_invocation(run, out, log);
        REQUIRE_FALSE(outcome);
        CHECK_THAT(outcome.error().message, Catch::Contains("--binary wants RUNTIME=PATH"));
    }
    SECTION("contention") {
        run.contention = "sometimes";
        auto outcome = run_invocation(run, out, log);
        REQUIRE_FALSE(outcome);
        CHECK_THAT(outcome.error().message, Catch::Contains("--contention"));
    }
    SECTION("pair") {
        run.pairs = {"no-slash"};
        auto outcome = run_invocation(run, out, log);
        REQUIRE_FALSE(outcome);
        CHECK_THAT(outcome.error().message, Catch::Contains("no-slash"));
    }
    CHECK(out.str().empty());
}

TEST_CASE("run: a manifest that does not load is an error naming it", "[run-invocation]") {
    RunInvocation run;
    run.suite = test::source_path("perf/tests/data/no-such-suite.json");
    run.list = true;
    std::ostringstream out, log;
    auto outcome = run_invocation(run, out, log);
    REQUIRE_FALSE(outcome);
    CHECK_THAT(outcome.error().message, Catch::Contains("no-such-suite.json"));
}

TEST_CASE("run by hand records into perf-results/ and gates against benchmarks/, never appending to the baselines",
          "[run-invocation]") {
    // The README promises that only a baseline run writes to benchmarks/: `perfgate run` without
    // --results-dir used to append there, so an ad-hoc run became the next baseline.
    const RunInvocation run;
    CHECK(run.request.results_dir == "perf-results");
    CHECK(run.request.history_dir == "benchmarks");
}

TEST_CASE("run --gate at a base ref that cannot be read is the pair's error, not a pass", "[run-invocation]") {
    // Issue 48 item 8: the pair's own test exited 0 for a 3x slower pair when the gate could not
    // read the base (an unknown ref); only the summary caught it.
    const auto dir = test::fresh_dir("perfgate-runner-tests", "gate-at-unknown-ref");
    RunInvocation run = stub_suite_on_replayed_host(dir);
    run.pairs = {"stub-ok/small"};
    run.contention = "off";
    run.request.gate = true;
    run.request.results_dir = dir / "results";
    run.request.history_dir = dir / "results";
    run.request.thresholds_dir = test::source_path("thresholds").string();
    std::ostringstream out, log;
    SECTION("outside a git checkout") {
        run.request.baseline_ref = "no-such-ref-of-perfgate";
        auto outcome = run_invocation(run, out, log);
        INFO(log.str());
        REQUIRE_FALSE(outcome);
        CHECK_THAT(outcome.error().message, Catch::Contains("--baseline-ref"));
    }
    SECTION("an unknown ref of a checkout") {
        if (std::system(("git init -q '" + dir.string() + "' > /dev/null 2>&1").c_str()) != 0) return;  // no git here
        run.request.baseline_ref = "no-such-ref-of-perfgate";
        auto outcome = run_invocation(run, out, log);
        INFO(log.str());
        REQUIRE_FALSE(outcome);
        CHECK_THAT(outcome.error().message, Catch::Contains("no-such-ref-of-perfgate"));
    }
    SECTION("without a ref a gate that cannot read its inputs is logged, and the pair keeps its status") {
        test::write_file(dir / "bad-thresholds" / "default.json", "{ not json");
        run.request.thresholds_dir = (dir / "bad-thresholds").string();
        auto outcome = run_invocation(run, out, log);
        REQUIRE(outcome);
        CHECK_THAT(log.str(), Catch::Contains("perfgate gate: ") && Catch::Contains("default.json"));
    }
}
