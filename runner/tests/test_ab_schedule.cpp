#include <catch2/catch.hpp>

#include <string>

#include "perfgate/runner/ab_schedule.hpp"

using namespace perfgate::runner;
using perfgate::gates::Verdict;

namespace {
std::string letters(std::size_t rounds) {
    std::string s;
    for (std::size_t r = 0; r < rounds; ++r)
        for (Arm a : arm_order(r)) s += a == Arm::base ? 'A' : 'B';
    return s;
}
}  // namespace

TEST_CASE("arm order: ABBA BAAB repeated, each arm first in half of every four rounds", "[runner][ab]") {
    CHECK(letters(4) == "ABBABAAB");
    CHECK(letters(8) == "ABBABAABABBABAAB");
    for (std::size_t blocks = 1; blocks <= 5; ++blocks) {
        std::size_t base_first = 0;
        for (std::size_t r = 0; r < 4 * blocks; ++r) base_first += arm_order(r).front() == Arm::base;
        CHECK(base_first == 2 * blocks);
    }
    // Both arms run once in every round.
    for (std::size_t r = 0; r < 9; ++r) {
        const auto order = arm_order(r);
        REQUIRE(order.size() == 2);
        CHECK(order[0] != order[1]);
    }
}

TEST_CASE("early stop: not before the minimum, at the cap, and once every metric is decisive", "[runner][ab]") {
    const StopRule rule{5, 10};
    const std::vector<Verdict> decisive{Verdict::unchanged, Verdict::regressed};
    const std::vector<Verdict> open{Verdict::unchanged, Verdict::inconclusive};
    CHECK_FALSE(should_stop(rule, 4, decisive));
    CHECK(should_stop(rule, 5, decisive));
    CHECK_FALSE(should_stop(rule, 5, open));
    CHECK_FALSE(should_stop(rule, 9, open));
    CHECK(should_stop(rule, 10, open));
    CHECK(should_stop(rule, 7, {Verdict::improved, Verdict::improved}));
}
