#include <catch2/catch.hpp>

#include "perfgate/gates/paired.hpp"

using namespace perfgate::gates;

TEST_CASE("Wilcoxon signed-rank: exact one-sided p-values of known cases", "[gates][paired]") {
    // Every one of 5 differences negative: only 1 of 2^5 sign patterns is as extreme.
    CHECK(*wilcoxon_signed_rank_p_lower({-0.1, -0.2, -0.3, -0.4, -0.5}) == Approx(1.0 / 32.0));
    CHECK(*wilcoxon_signed_rank_p_upper({-0.1, -0.2, -0.3, -0.4, -0.5}) == Approx(1.0));
    CHECK(*wilcoxon_signed_rank_p_lower({-1, -2, -3, -4, -5, -6}) == Approx(1.0 / 64.0));
    // n = 5, W+ = 5 (only the largest positive): subsets of {1..5} summing to at most 5 are 10 of 32.
    CHECK(*wilcoxon_signed_rank_p_lower({-1, -2, -3, -4, 5}) == Approx(10.0 / 32.0));
    // n = 10, W+ = 8: 25 of 1024 (the tables' 0.0244, the one-sided 2.5% critical value).
    CHECK(*wilcoxon_signed_rank_p_lower({-1, -2, -3, -4, -5, -6, -7, 8, -9, -10}) == Approx(25.0 / 1024.0));
    // Ties share a mid-rank: |d| all equal, ranks 2,2,2; W+ = 2 of a possible 0,2,4,6 -> 4 of 8.
    CHECK(*wilcoxon_signed_rank_p_lower({-1, -1, 1}) == Approx(0.5));
    // Zeros are dropped: two negatives left, 1 of 4.
    CHECK(*wilcoxon_signed_rank_p_lower({0, -1, -2}) == Approx(0.25));
    CHECK_FALSE(wilcoxon_signed_rank_p_lower({0, 0}));
    CHECK_FALSE(wilcoxon_signed_rank_p_lower({}));
}

TEST_CASE("t interval of a mean", "[gates][paired]") {
    // mean 2, sd 1, n 3: t(2 df, 0.975) = 4.302653, half-width 4.302653 / sqrt(3) = 2.484138.
    auto ci = mean_t_interval({1, 2, 3}, 0.95);
    REQUIRE(ci);
    CHECK(ci->low == Approx(2 - 2.484138).epsilon(1e-5));
    CHECK(ci->high == Approx(2 + 2.484138).epsilon(1e-5));
    // A stricter level is wider.
    auto wider = mean_t_interval({1, 2, 3}, 0.99);
    CHECK(wider->low < ci->low);
    CHECK(wider->high > ci->high);
    auto point = mean_t_interval({4, 4, 4}, 0.99);
    CHECK(point->low == 4);
    CHECK(point->high == 4);
    CHECK_FALSE(mean_t_interval({1}, 0.95));
}

TEST_CASE("paired decision: regressed, improved, unchanged, inconclusive", "[gates][paired]") {
    const std::vector<double> base{100, 100, 100, 100, 100};
    auto slower = decide_paired("decode_tok_s", base, {90, 91, 89, 90.5, 89.5}, 0.05, 0.99, 0.90);
    CHECK(slower.verdict == Verdict::regressed);
    CHECK(slower.rounds == 5);
    CHECK(*slower.change == Approx(-0.1).margin(0.002));
    CHECK(slower.interval->high < 0);
    CHECK(*slower.p_slower == Approx(1.0 / 32.0));

    auto faster = decide_paired("decode_tok_s", base, {110, 111, 109, 110.5, 109.5}, 0.05, 0.99, 0.90);
    CHECK(faster.verdict == Verdict::improved);
    CHECK(*faster.p_faster == Approx(1.0 / 32.0));

    // Lower is better: more instructions in every round is "head slower", with its small p.
    const std::vector<double> counts{15.3e6, 15.3e6, 15.3e6, 15.3e6, 15.3e6};
    auto more = decide_paired("decode_instructions_per_token", counts, {20.7e6, 20.6e6, 20.7e6, 20.8e6, 20.7e6}, 0.005, 0.99, 0.90);
    CHECK(more.verdict == Verdict::regressed);
    CHECK(*more.p_slower == Approx(1.0 / 32.0));
    CHECK(*more.p_faster == Approx(1.0));

    auto same = decide_paired("decode_tok_s", base, {100.5, 99.5, 100.2, 99.8, 100}, 0.05, 0.99, 0.90);
    CHECK(same.verdict == Verdict::unchanged);
    CHECK(same.interval->low >= -0.05);
    CHECK(same.interval->high <= 0.05);

    auto noisy = decide_paired("decode_tok_s", base, {80, 120, 95, 105, 90}, 0.05, 0.99, 0.90);
    CHECK(noisy.verdict == Verdict::inconclusive);

    // A significant drop smaller than the floor is not a regression: the interval crosses -floor.
    auto small = decide_paired("decode_tok_s", base, {97, 96, 98, 97.5, 96.5}, 0.05, 0.99, 0.90);
    CHECK(small.verdict != Verdict::regressed);

    // One round gives a change but no interval, so no decision yet.
    auto one = decide_paired("decode_tok_s", {100}, {90}, 0.05, 0.99, 0.90);
    CHECK(one.change);
    CHECK_FALSE(one.interval);
    CHECK(one.verdict == Verdict::inconclusive);
}

TEST_CASE("sequential look levels: a tenth of alpha for the interim looks", "[gates][paired]") {
    // min 5, max 10: 6 looks; 2 metrics; alpha 1% -> 0.5% per metric, 0.01% per interim look.
    CHECK(sequential_look_levels(0.01, 5, 10, 2).interim == Approx(1 - 2 * 0.0001));
    CHECK(sequential_look_levels(0.01, 5, 10, 2).last == Approx(1 - 2 * 0.0045));
    CHECK(sequential_look_levels(0.01, 3, 3, 1).last == Approx(0.98));
    // What the looks spend adds up to the metric's share, whatever the round a decision stops at.
    const auto l = sequential_look_levels(0.01, 5, 10, 2);
    CHECK((l.looks - 1) * (1 - l.interim) / 2 + (1 - l.last) / 2 == Approx(0.005));
    CHECK(l.at(9, 10) == l.interim);
    CHECK(l.at(10, 10) == l.last);
}

TEST_CASE("paired decisions speak the gate's vocabulary: worst first, one colour per verdict", "[paired]") {
    CHECK(worse(Verdict::improved, Verdict::inconclusive) == Verdict::inconclusive);
    CHECK(worse(Verdict::regressed, Verdict::failed) == Verdict::failed);
    CHECK(worse(Verdict::unchanged, Verdict::unchanged) == Verdict::unchanged);
    CHECK(std::string(to_string(Verdict::inconclusive)) == "inconclusive");
    CHECK(color_of(Verdict::regressed) == perfgate::Color::red);
    CHECK(color_of(Verdict::inconclusive) == perfgate::Color::yellow);
    CHECK(color_of(Verdict::improved) == perfgate::Color::green);
    CHECK_FALSE(color_of(Verdict::unchanged));
    CHECK(is_decisive(Verdict::unchanged));
    CHECK_FALSE(is_decisive(Verdict::inconclusive));
}
