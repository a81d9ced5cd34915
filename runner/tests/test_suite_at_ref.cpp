// Issue 26, items 1 and 3 in the runner: what a change altered in a pair's workload (it fails at a
// base ref), and where the base ref may come from (never the environment a test preset sets).
#include <catch2/catch.hpp>

#include <cstdlib>

#include "perfgate/runner/suite_at_ref.hpp"

using namespace perfgate;
using namespace perfgate::runner;

namespace {

perf::Suite two_pairs() {
    perf::Suite s;
    perf::SuiteRuntime rt;
    rt.name = "llama";
    rt.args = {"-m", "{model}"};
    s.runtimes = {rt};
    s.pairs = {{"llama", "small"}, {"llama", "big"}};
    return s;
}

}  // namespace

TEST_CASE("workload changes: tokens, batch, args and flags of pairs both suites run", "[suite-at-ref]") {
    const perf::Suite base = two_pairs();
    CHECK(workload_changes(base, base).empty());

    perf::Suite tokens = base;
    tokens.workload.generated_tokens = 127;
    tokens.workload.prompt_tokens = 256;
    auto changed = workload_changes(base, tokens);
    REQUIRE(changed.size() == 2);
    CHECK(changed.at({"llama", "small"}) == "prompt_tokens 512 -> 256, generated_tokens 128 -> 127");

    perf::Suite flags = base;
    flags.runtimes[0].flags = {"-n", "1"};
    flags.pairs.push_back({"llama", "added"});  // a pair the change adds has nothing to compare
    changed = workload_changes(base, flags);
    REQUIRE(changed.size() == 2);
    CHECK(changed.at({"llama", "big"}) == "flags [] -> [-n 1]");
    CHECK_FALSE(changed.count({"llama", "added"}));
}

TEST_CASE("the base ref comes from --baseline-ref, never from PERFGATE_BASELINE_REF", "[suite-at-ref]") {
    ::unsetenv("PERFGATE_BASELINE_REF");
    CHECK_FALSE(baseline_ref_for_run(std::nullopt).value().has_value());
    CHECK(baseline_ref_for_run(std::string("abc123")).value() == std::optional<std::string>("abc123"));
    auto blank = baseline_ref_for_run(std::string(" "));
    REQUIRE_FALSE(blank);
    CHECK_THAT(blank.error().message, Catch::Contains("--baseline-ref is empty"));

    // A test preset's "environment" sets it: refused, with or without the option.
    ::setenv("PERFGATE_BASELINE_REF", "HEAD", 1);
    auto from_env = baseline_ref_for_run(std::nullopt);
    auto both = baseline_ref_for_run(std::string("abc123"));
    ::unsetenv("PERFGATE_BASELINE_REF");
    REQUIRE_FALSE(from_env);
    REQUIRE_FALSE(both);
    CHECK_THAT(from_env.error().message, Catch::Contains("PERFGATE_BASELINE_REF is set in the environment"));
}
