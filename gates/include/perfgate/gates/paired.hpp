#pragma once
// Paired statistics for interleaved A/B runs (perfgate ab): each round measures the base and the
// head build once, back to back, so a round's log ratio log(head/base) is free of the drift that
// moves both arms alike. The decision is made on those per-round log ratios.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/gates/report.hpp"

namespace perfgate::gates {

// Exact one-sided Wilcoxon signed-rank p-value for H1 "the differences are centred below zero":
// P(W+ <= observed W+) under the null where every rank's sign is + or - with probability 1/2.
// Zero differences are dropped (Wilcoxon's rule); tied magnitudes get mid-ranks, and the
// distribution is the exact permutation distribution of those mid-ranks, so it stays exact with
// ties and for any n. nullopt when no non-zero difference is left.
std::optional<double> wilcoxon_signed_rank_p_lower(const std::vector<double>& differences);
// The same for H1 "centred above zero".
std::optional<double> wilcoxon_signed_rank_p_upper(const std::vector<double>& differences);

// A two-sided confidence interval for the mean of `values` at `confidence` (e.g. 0.99), Student's
// t. nullopt with fewer than 2 values. With no spread at all the interval is the single point.
struct Interval {
    double low = 0;
    double high = 0;
};
std::optional<Interval> mean_t_interval(const std::vector<double>& values, double confidence);

// A paired decision is one of regressed, inconclusive, improved or unchanged (report.hpp's Verdict,
// the vocabulary the gate and the page use). Decisive: anything but inconclusive.
bool is_decisive(Verdict v);

// One metric of one model after some rounds. Changes are fractions (-0.05 = 5% slower); the
// change is the geometric mean of the round ratios minus 1, its interval the t interval of the
// mean log ratio mapped the same way.
struct PairedCheck {
    std::string metric;
    std::size_t rounds = 0;           // pairs with a reading on both arms
    double floor = 0;                 // the metric's max_drop: changes smaller than this do not matter
    double confidence = 0;            // two-sided level of the interval
    std::optional<double> change;
    // Each arm's level over the paired rounds (geometric means: head_level / base_level - 1 is
    // `change`), in the metric's own unit, for the reader of a report.
    std::optional<double> base_level, head_level;
    std::optional<Interval> interval;
    // The equivalence test (two one-sided tests, TOST, at the floor): `unchanged` needs this
    // interval, at its own two-sided level (each one-sided test at (1 - level) / 2), inside
    // [-floor, +floor]. It is narrower than the alarm's: the alarm guards against false
    // regressions at the run's strict budget, the equivalence test against calling a real change
    // of the floor's size `unchanged`, at 5% (docs/ab.md, "Unchanged").
    double equivalence_confidence = 0;
    std::optional<Interval> equivalence_interval;
    // The smallest worsening (a fraction) this decision would find regressed with 95% power at its
    // rounds, spread and alarm level, as the gate states it: max(t * se, floor) + t_power * se in
    // log units. nullopt without an interval.
    std::optional<double> min_detectable_effect;
    // Wilcoxon, H1: head worse than base in the metric's direction (a lower rate; more memory or
    // instructions), and its opposite.
    std::optional<double> p_slower;
    std::optional<double> p_faster;
    Verdict verdict = Verdict::inconclusive;
};

// regressed: the whole alarm interval (two-sided `confidence`) is on the metric's worse side of 0
// (below for a rate, above for a memory figure) and the point change beyond the floor that way;
// improved symmetrically; unchanged: the equivalence interval (two-sided `equivalence_confidence`)
// lies within [-floor, +floor]; otherwise inconclusive.
// `base` and `head` are the per-round readings (same length, round i of each arm together).
PairedCheck decide_paired(const std::string& metric, const std::vector<double>& base, const std::vector<double>& head,
                          double floor, double confidence, double equivalence_confidence);

// The confidence levels of a sequential A/B decision that is looked at after every round from
// `min_rounds` to `max_rounds`, for `tests` decisions (every metric of every model of a run),
// keeping the family-wise false-alarm rate of the whole run at most `alpha`. Haybittle-Peto
// boundaries with Bonferroni accounting: each test gets alpha / tests; the looks before the last share `interim_share` of it equally (a strict
// level: stopping early takes overwhelming evidence), and the last look gets the rest. The sum over
// looks is the metric's share, so the bound holds whatever round a decision stops at, while the
// last look, which every decision that is not clear early reaches, keeps most of the level
// (plain Bonferroni over six looks left it a sixth and missed real slowdowns: docs/ab.md).
// The equivalence test's levels are spent over the looks the same way, from kEquivalenceAlpha per
// metric and not split over the tests: `unchanged` is claimed of each metric on its own (a model is
// unchanged only when all its metrics are, an intersection of claims, which needs no split).
struct LookLevels {
    std::size_t looks = 1;
    double interim = 0;  // two-sided confidence at every look before the last
    double last = 0;     // two-sided confidence at the last look (max_rounds)
    double equivalence_interim = 0, equivalence_last = 0;  // the same for the equivalence interval
    double at(std::size_t rounds, std::size_t max_rounds) const { return rounds >= max_rounds ? last : interim; }
    double equivalence_at(std::size_t rounds, std::size_t max_rounds) const {
        return rounds >= max_rounds ? equivalence_last : equivalence_interim;
    }
};
inline constexpr double default_interim_share = 0.1;
// The error of calling a change of the floor's size `unchanged`: two one-sided tests at 5% each,
// the usual level of an equivalence test (a 90% interval inside the floor, at a single look).
inline constexpr double kEquivalenceAlpha = 0.05;

// Half the width of the t interval of a mean of `rounds` paired log ratios at two-sided
// `confidence`, in units of the per-round spread: t(rounds - 1) / sqrt(rounds). At 2 rounds and
// 99.4% it is about 75, so the interval spans [-100%, >+1000%] and no change is ever decided.
double interval_half_width_factor(double confidence, std::size_t rounds);
LookLevels sequential_look_levels(double alpha, std::size_t min_rounds, std::size_t max_rounds, std::size_t tests,
                                  double interim_share = default_interim_share);

}  // namespace perfgate::gates
