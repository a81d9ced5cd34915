// The sequential A/B rule's error rates, by simulation of the whole loop (decide after each round,
// stop as should_stop says): the false-alarm bound must hold whatever round a decision stops at,
// and a slowdown of the size the CPU host's measured round-to-round spread allows must be found
// within the round cap. Fixed seeds: the same draws on every run.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "perfgate/gates/paired.hpp"
#include "perfgate/runner/ab_schedule.hpp"

using namespace perfgate;

namespace {

struct Rates {
    double regressed = 0, unchanged = 0, mean_rounds = 0;
};

// One metric, `decisions` simulated A/B decisions whose per-round log ratios are normal(mu, sigma).
Rates simulate(double mu, double sigma, double floor, const runner::StopRule& stop, const gates::LookLevels& levels,
               int decisions, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(mu, sigma);
    Rates r;
    for (int i = 0; i < decisions; ++i) {
        std::vector<double> base, head;
        gates::PairedCheck check;
        for (std::size_t round = 1; round <= stop.max_rounds; ++round) {
            base.push_back(100.0);
            head.push_back(100.0 * std::exp(noise(rng)));
            check = gates::decide_paired("decode_tok_s", base, head, floor, levels.at(round, stop.max_rounds),
                                          levels.equivalence_at(round, stop.max_rounds));
            if (runner::should_stop(stop, round, {check.verdict})) break;
        }
        r.regressed += check.verdict == gates::Verdict::regressed;
        r.unchanged += check.verdict == gates::Verdict::unchanged;
        r.mean_rounds += static_cast<double>(check.rounds);
    }
    r.regressed /= decisions;
    r.unchanged /= decisions;
    r.mean_rounds /= decisions;
    return r;
}

}  // namespace

TEST_CASE("sequential A/B rule: false alarms stay within the per-metric share over all looks", "[runner][ab][stats]") {
    const runner::StopRule stop{5, 10};
    const auto levels = gates::sequential_look_levels(0.01, stop.min_rounds, stop.max_rounds, 2);
    // The worst case for the bound: no floor, so every interval below zero counts as a regression.
    // The share per metric is 0.5%; 20,000 null decisions put the Monte Carlo error near 0.05%.
    const auto null = simulate(0.0, 0.025, 0.0, stop, levels, 20000, 11);
    CHECK(null.regressed <= 0.0065);
    // Looking at every round at the nominal level instead would break it: the reason for the rule.
    auto naive = levels;
    naive.interim = naive.last = 0.99;
    CHECK(simulate(0.0, 0.025, 0.0, stop, naive, 20000, 11).regressed > 0.0065);
}

TEST_CASE("sequential A/B rule: finds the CPU host's plus5 slowdown within 10 rounds", "[runner][ab][stats]") {
    // The 2-core host, quiet, -p 64 -n 64 -r 3: the plus5 head runs decode about 8% slower and a
    // decision's per-round log ratios spread 0.025 (median) to 0.05 (worst) (docs/verdict-quality.md).
    const runner::StopRule stop{5, 10};
    const auto levels = gates::sequential_look_levels(0.01, stop.min_rounds, stop.max_rounds, 2);
    const auto plus5 = simulate(std::log(0.92), 0.035, 0.05, stop, levels, 4000, 12);
    CHECK(plus5.regressed >= 0.95);
    // At the worst decision's spread, plain Bonferroni over the six looks (the rule this one
    // replaced) missed about a fifth: the last look's level is what decides detection at the cap.
    const double bonferroni = 1 - 2 * 0.01 / 12;
    const auto wide = simulate(std::log(0.92), 0.05, 0.05, stop, levels, 4000, 14);
    auto bonferroni_levels = levels;
    bonferroni_levels.interim = bonferroni_levels.last = bonferroni;
    const auto old = simulate(std::log(0.92), 0.05, 0.05, stop, bonferroni_levels, 4000, 14);
    CHECK(wide.regressed > old.regressed + 0.1);
    // An A/A run at the median spread ends unchanged (within the 5% floor), never regressed.
    const auto aa = simulate(0.0, 0.025, 0.05, stop, levels, 4000, 13);
    CHECK(aa.regressed == 0.0);
    CHECK(aa.unchanged >= 0.95);
}

TEST_CASE("sequential A/B rule at an H200's spread: a 2% slowdown is found, an A/A is shown unchanged", "[runner][ab][stats]") {
    // One H200, llama-bench decode: launches of one sitting spread 0.5-0.75% (docs/verdict-quality.md).
    // A suite of 2 models x 3 metrics at alpha 1%, the A/B floor 1% (thresholds/default.json).
    const runner::StopRule stop{5, 10};
    const auto levels = gates::sequential_look_levels(0.01, stop.min_rounds, stop.max_rounds, 6);
    const auto slower = simulate(std::log(0.98), 0.0075, 0.01, stop, levels, 4000, 21);
    CHECK(slower.regressed >= 0.95);
    // Unchanged is the equivalence test's (its 91% interval inside +-1% at the last look): the
    // alarm's 99.8% interval alone would call far fewer A/As unchanged.
    const auto aa = simulate(0.0, 0.0075, 0.01, stop, levels, 4000, 22);
    CHECK(aa.regressed == 0.0);
    CHECK(aa.unchanged >= 0.9);
    auto alarm_only = levels;
    alarm_only.equivalence_interim = alarm_only.interim;
    alarm_only.equivalence_last = alarm_only.last;
    CHECK(simulate(0.0, 0.0075, 0.01, stop, alarm_only, 4000, 22).unchanged < aa.unchanged - 0.2);
    // A change of the floor's size is called unchanged at most about the equivalence test's 5%.
    const auto at_floor = simulate(std::log(0.99), 0.0075, 0.01, stop, levels, 4000, 23);
    CHECK(at_floor.unchanged <= 0.06);
}
