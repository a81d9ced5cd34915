// perfgate run as one library call (runner/run_invocation.hpp): each mode, and its bad input as
// errors. The pairs themselves are run by the perf self-tests through the real executable.
#include <catch2/catch.hpp>

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
    // A replayed host from the suite's own recording: nothing is probed on this machine.
    const auto host_dir = test::fresh_dir("perfgate-runner-tests", "run-invocation");
    RunInvocation setup = stub_suite();
    setup.write_host = host_dir / "host.json";
    setup.host.sysroot = test::source_path("probes/tests/data/machines/strixhalo-64g-rocminfo/root").string();
    setup.host.tool_path = test::source_path("probes/tests/data/machines/strixhalo-64g-rocminfo/bin").string();
    std::ostringstream sink;
    auto written = run_invocation(setup, sink, sink);
    REQUIRE(written);
    REQUIRE(*written == Outcome::pass);

    RunInvocation run = stub_suite();
    run.host.host_json = setup.write_host;
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
