// The typed outcome a runner call ends with (runner/outcome.hpp); cli/outcome_exit.hpp maps it.
#include <catch2/catch.hpp>

#include "perfgate/runner/outcome.hpp"

using namespace perfgate::runner;

TEST_CASE("a pair's outcome follows its status token", "[runner]") {
    using perfgate::StatusToken;
    CHECK(outcome_of(StatusToken{"ok"}) == Outcome::pass);
    CHECK(outcome_of(StatusToken{"FAIL:timeout"}) == Outcome::fail);
    CHECK(outcome_of(StatusToken{"SKIP:oom_estimate"}) == Outcome::skip);
    CHECK(outcome_of(StatusToken{"SKIP:contended"}) == Outcome::skip);
}
