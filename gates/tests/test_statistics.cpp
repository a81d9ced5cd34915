#include <catch2/catch.hpp>

#include "perfgate/gates/decision.hpp"
#include "perfgate/gates/statistics.hpp"

using namespace perfgate::gates;

TEST_CASE("median of odd and even counts", "[gates][statistics]") {
    CHECK(median({3, 1, 2}) == 2);
    CHECK(median({4, 1, 3, 2}) == 2.5);
}

TEST_CASE("Welch's t: a clear drop is significant, a noisy one is not, no spread gives no test", "[gates][statistics]") {
    std::vector<double> base{100, 101, 99, 100.5, 99.5};
    auto p = welch_p_lower({80, 81, 79}, base);
    REQUIRE(p);
    CHECK(*p < 0.001);
    auto up = welch_p_lower(base, {80, 81, 79});
    REQUIRE(up);
    CHECK(*up > 0.99);
    auto noisy = welch_p_lower({70, 130, 85}, {100, 101, 99});
    REQUIRE(noisy);
    CHECK(*noisy > 0.05);
    CHECK_FALSE(welch_p_lower({5, 5}, {5, 5}));
    CHECK_FALSE(welch_p_lower({5}, {5, 6}));
    // Symmetry: equal means give p = 0.5 whatever the spreads.
    CHECK(*welch_p_lower({1, 2, 3}, {0, 2, 4}) == Approx(0.5));
}

TEST_CASE("Mann-Whitney U: exact distribution for small samples without ties", "[gates][statistics]") {
    // Fully separated 3 vs 3: only 1 of C(6,3) = 20 orderings is as extreme.
    auto p = mann_whitney_p_lower({1, 2, 3}, {4, 5, 6});
    REQUIRE(p);
    CHECK(*p == Approx(1.0 / 20.0));
    // Fully separated 5 vs 5: 1 / C(10,5) = 1/252.
    CHECK(*mann_whitney_p_lower({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}) == Approx(1.0 / 252.0));
    // Reversed order: every ordering is at least as extreme.
    CHECK(*mann_whitney_p_lower({4, 5, 6}, {1, 2, 3}) == Approx(1.0));
    // Ties use the normal approximation and stay within (0, 1).
    auto tied = mann_whitney_p_lower({1, 2, 2, 3}, {2, 3, 3, 4});
    REQUIRE(tied);
    CHECK(*tied > 0.0);
    CHECK(*tied < 0.5);
    CHECK_FALSE(mann_whitney_p_lower({2, 2}, {2, 2}));
}

TEST_CASE("decision: threshold AND significance with samples, threshold alone for single readings",
          "[gates][decision]") {
    Threshold t;
    t.max_drop = 0.05;
    t.alpha = 0.05;
    auto single = decide_metric("decode_tok_s", {100}, {94}, t, StatTest::welch_t);
    CHECK(single.verdict == Verdict::regressed);
    CHECK(single.test == "threshold-only");
    CHECK(decide_metric("decode_tok_s", {100}, {96}, t, StatTest::welch_t).verdict == Verdict::unchanged);
    CHECK(decide_metric("decode_tok_s", {100}, {106}, t, StatTest::welch_t).verdict == Verdict::improved);

    t.noise = 0.03;  // the host's recorded noise widens the single-reading limit to 8%
    CHECK(decide_metric("decode_tok_s", {100}, {94}, t, StatTest::welch_t).verdict == Verdict::unchanged);
    CHECK(decide_metric("decode_tok_s", {100}, {91}, t, StatTest::welch_t).verdict == Verdict::regressed);
    t.noise = 0;

    auto sig = decide_metric("decode_tok_s", {100, 101, 99}, {80, 81, 79}, t, StatTest::welch_t);
    CHECK(sig.verdict == Verdict::regressed);
    REQUIRE(sig.p_value);
    CHECK(*sig.p_value < 0.05);
    auto noisy = decide_metric("decode_tok_s", {100, 101, 99}, {70, 130, 85}, t, StatTest::welch_t);
    CHECK(noisy.verdict == Verdict::inconclusive);
    CHECK_THAT(noisy.reason, Catch::Contains("p ="));
    // A significant drop within the threshold is not a regression.
    CHECK(decide_metric("decode_tok_s", {100, 100.1, 99.9}, {98, 98.1, 97.9}, t, StatTest::welch_t).verdict ==
          Verdict::unchanged);

    auto zero = decide_metric("decode_tok_s", {0.0}, {0.0}, t, StatTest::welch_t);
    CHECK(zero.verdict == Verdict::not_comparable);
    CHECK_THAT(zero.reason, Catch::Contains("0.00"));
    CHECK(decide_metric("decode_tok_s", {}, {5}, t, StatTest::welch_t).verdict == Verdict::not_comparable);
}
