#pragma once
// Paired statistics for interleaved A/B runs (perfgate ab): each round measures the base and the
// head build once, back to back, so a round's log ratio log(head/base) is free of the drift that
// moves both arms alike. The decision is made on those per-round log ratios.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

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

enum class PairedVerdict { regressed, inconclusive, improved, unchanged };  // worst first
const char* to_string(PairedVerdict v);
bool is_decisive(PairedVerdict v);  // everything but inconclusive

// One metric of one model after some rounds. Changes are fractions (-0.05 = 5% slower); the
// change is the geometric mean of the round ratios minus 1, its interval the t interval of the
// mean log ratio mapped the same way.
struct PairedCheck {
    std::string metric;
    std::size_t rounds = 0;           // pairs with a reading on both arms
    double floor = 0;                 // the metric's max_drop: changes smaller than this do not matter
    double confidence = 0;            // two-sided level of the interval
    std::optional<double> change;
    std::optional<Interval> interval;
    std::optional<double> p_slower;   // Wilcoxon, H1: head slower than base
    std::optional<double> p_faster;   // Wilcoxon, H1: head faster than base
    PairedVerdict verdict = PairedVerdict::inconclusive;
};

// regressed: the whole interval is below 0 and the point change is below -floor; improved
// symmetrically; unchanged: the interval lies within [-floor, +floor]; otherwise inconclusive.
// `base` and `head` are the per-round readings (same length, round i of each arm together).
PairedCheck decide_paired(const std::string& metric, const std::vector<double>& base, const std::vector<double>& head,
                          double floor, double confidence);

// The per-look confidence that keeps the family-wise false-alarm rate at most `alpha` when the
// verdict is looked at after every round from `min_rounds` to `max_rounds`, for `metrics` metrics:
// Bonferroni, alpha / (looks x metrics) per one-sided tail, so the two-sided level is 1 - 2 x that.
double per_look_confidence(double alpha, std::size_t min_rounds, std::size_t max_rounds, std::size_t metrics);

}  // namespace perfgate::gates
