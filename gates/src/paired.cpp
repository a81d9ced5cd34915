#include "perfgate/gates/paired.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <limits>
#include <cmath>
#include <numeric>
#include <tuple>
#include <utility>

#include "perfgate/core/metric.hpp"
#include "perfgate/core/stats.hpp"

namespace perfgate::gates {
namespace {

// Mid-ranks of |d| for the non-zero differences, doubled so that they are integers (a tie of two
// at ranks 3 and 4 gets 3.5, doubled 7), together with the doubled W+ of the sample.
struct DoubledRanks {
    std::vector<long> ranks;
    long w_plus = 0;
};

DoubledRanks doubled_ranks(const std::vector<double>& differences) {
    std::vector<double> nonzero;
    for (double d : differences)
        if (d != 0.0 && std::isfinite(d)) nonzero.push_back(d);
    std::vector<std::size_t> order(nonzero.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return std::abs(nonzero[a]) < std::abs(nonzero[b]); });
    DoubledRanks out;
    out.ranks.resize(nonzero.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && std::abs(nonzero[order[j + 1]]) == std::abs(nonzero[order[i]])) ++j;
        const long doubled_mid = static_cast<long>(i + 1 + j + 1);  // (rank i+1 + rank j+1) / 2, doubled
        for (std::size_t k = i; k <= j; ++k) out.ranks[order[k]] = doubled_mid;
        i = j + 1;
    }
    for (std::size_t i = 0; i < nonzero.size(); ++i)
        if (nonzero[i] > 0) out.w_plus += out.ranks[i];
    return out;
}

// P(W+ <= w) when each rank enters W+ with probability 1/2: the count of sign patterns per sum,
// built rank by rank (a subset-sum table), divided by 2^n. Doubled ranks keep the sums integer.
double lower_tail(const std::vector<long>& ranks, long w) {
    const long total = std::accumulate(ranks.begin(), ranks.end(), 0L);
    std::vector<double> ways(static_cast<std::size_t>(total) + 1, 0.0);
    ways[0] = 1.0;
    long reach = 0;
    for (long r : ranks) {
        for (long s = reach; s >= 0; --s)
            if (ways[static_cast<std::size_t>(s)] != 0.0) ways[static_cast<std::size_t>(s + r)] += ways[static_cast<std::size_t>(s)];
        reach += r;
    }
    double below = 0.0;
    for (long s = 0; s <= std::min(w, total); ++s) below += ways[static_cast<std::size_t>(s)];
    return std::min(1.0, below / std::pow(2.0, static_cast<double>(ranks.size())));
}

// The standard error of the mean of `values` (sample standard deviation over sqrt(n)); n >= 2.
double standard_error(const std::vector<double>& values) {
    const double n = static_cast<double>(values.size());
    const double mean = perfgate::mean(values);
    double ss = 0.0;
    for (double v : values) ss += (v - mean) * (v - mean);
    return std::sqrt(ss / (n - 1.0) / n);
}

std::optional<double> p_lower_of(const std::vector<double>& differences) {
    const auto dr = doubled_ranks(differences);
    if (dr.ranks.empty()) return std::nullopt;
    return lower_tail(dr.ranks, dr.w_plus);
}

}  // namespace

std::optional<double> wilcoxon_signed_rank_p_lower(const std::vector<double>& differences) {
    return p_lower_of(differences);
}

std::optional<double> wilcoxon_signed_rank_p_upper(const std::vector<double>& differences) {
    std::vector<double> flipped(differences.size());
    std::transform(differences.begin(), differences.end(), flipped.begin(), [](double d) { return -d; });
    return p_lower_of(flipped);
}

// Why Student's t and not a bootstrap: an A/B decision is looked at after 3 to 10 rounds and at a
// strict level (99% and beyond; 99.98% at the interim looks). A percentile bootstrap of 5 values cannot reach such
// a level (its extreme percentiles collapse onto the sample's minimum and maximum) and is known to
// cover too little at small n, which would turn into false alarms. The t interval is exact when
// the log ratios are normal, which throughput log ratios of one machine are close to, and it
// widens honestly when there are few rounds. It needs no seed either: the same data give the same
// interval everywhere.
std::optional<Interval> mean_t_interval(const std::vector<double>& values, double confidence) {
    const std::size_t n = values.size();
    if (n < 2) return std::nullopt;
    const double mean = perfgate::mean(values);
    const double se = standard_error(values);
    if (se == 0.0) return Interval{mean, mean};
    const boost::math::students_t dist(static_cast<double>(n - 1));
    const double t = boost::math::quantile(dist, 0.5 + confidence / 2.0);
    return Interval{mean - t * se, mean + t * se};
}

double interval_half_width_factor(double confidence, std::size_t rounds) {
    if (rounds < 2) return std::numeric_limits<double>::infinity();
    const boost::math::students_t dist(static_cast<double>(rounds - 1));
    return boost::math::quantile(dist, 0.5 + confidence / 2.0) / std::sqrt(static_cast<double>(rounds));
}

bool is_decisive(Verdict v) { return v != Verdict::inconclusive; }

namespace {

// The floor as a distance in log units on the metric's worse side: log(1 - floor) below 0 for a
// rate, log(1 + floor) above it for a memory figure or a count.
double floor_log_distance(const Metric& m, double floor) {
    return m.better == Better::higher ? -std::log1p(-std::min(floor, 0.999999)) : std::log1p(floor);
}

// A distance in log units on the worse side as a worsening fraction.
double worsening_of_distance(const Metric& m, double distance) {
    return m.better == Better::higher ? -std::expm1(-distance) : std::expm1(distance);
}

std::optional<Interval> ratio_interval(const std::vector<double>& logs, double confidence) {
    const auto log_interval = mean_t_interval(logs, confidence);
    if (!log_interval) return std::nullopt;
    return Interval{std::expm1(log_interval->low), std::expm1(log_interval->high)};
}

// Power behind the stated MDE: the gate's (DecisionRule::power).
constexpr double kMdePower = 0.95;

}  // namespace

PairedCheck decide_paired(const std::string& metric, const std::vector<double>& base, const std::vector<double>& head,
                          double floor, double confidence, double equivalence_confidence) {
    PairedCheck c;
    c.metric = metric;
    c.floor = floor;
    c.confidence = confidence;
    c.equivalence_confidence = equivalence_confidence;
    const Metric& m = perfgate::metric(metric);
    std::vector<double> logs, base_logs;
    for (std::size_t i = 0; i < std::min(base.size(), head.size()); ++i)
        if (base[i] > 0 && head[i] > 0) {
            logs.push_back(std::log(head[i] / base[i]));
            base_logs.push_back(std::log(base[i]));
        }
    c.rounds = logs.size();
    if (logs.empty()) return c;
    const double mean_log = perfgate::mean(logs);
    c.change = std::expm1(mean_log);  // geometric mean of the ratios, minus 1
    c.base_level = std::exp(perfgate::mean(base_logs));
    c.head_level = *c.base_level * (1.0 + *c.change);
    // Worse is down for a rate, up for a memory figure or an instruction count (the metric's
    // registered direction); the p-values follow it.
    const bool higher = m.better == Better::higher;
    const auto p_down = wilcoxon_signed_rank_p_lower(logs), p_up = wilcoxon_signed_rank_p_upper(logs);
    c.p_slower = higher ? p_down : p_up;
    c.p_faster = higher ? p_up : p_down;
    c.interval = ratio_interval(logs, confidence);
    c.equivalence_interval = ratio_interval(logs, equivalence_confidence);
    if (!c.interval || !c.equivalence_interval) return c;
    if (c.rounds >= 2) {
        const double se = standard_error(logs);
        const boost::math::students_t t(static_cast<double>(c.rounds - 1));
        const double alarm_t = boost::math::quantile(t, 0.5 + confidence / 2.0);
        const double power_t = boost::math::quantile(t, kMdePower);
        c.min_detectable_effect =
            worsening_of_distance(m, std::max(alarm_t * se, floor_log_distance(m, floor)) + power_t * se);
    }
    const double lo = c.interval->low, hi = c.interval->high;
    // A change too small to count in absolute terms (a few MiB of a small process) is no decision.
    const double base_level = *c.base_level;
    const bool material = !negligible(m, base_level, base_level * (1.0 + *c.change));
    const bool all_down = material && hi < 0 && *c.change < -floor, all_up = material && lo > 0 && *c.change > floor;
    const double eq_lo = c.equivalence_interval->low, eq_hi = c.equivalence_interval->high;
    if (higher ? all_down : all_up) c.verdict = Verdict::regressed;
    else if (higher ? all_up : all_down) c.verdict = Verdict::improved;
    else if (eq_lo >= -floor && eq_hi <= floor) c.verdict = Verdict::unchanged;
    else if (negligible(m, base_level, base_level * (1.0 + eq_lo)) && negligible(m, base_level, base_level * (1.0 + eq_hi)))
        c.verdict = Verdict::unchanged;  // the whole interval is too small to count
    else c.verdict = Verdict::inconclusive;
    return c;
}

namespace {

// Two-sided confidence at the interim looks and at the last when `per_test` is spent over `looks`.
std::pair<double, double> spent_over_looks(double per_test, std::size_t looks, double interim_share) {
    if (looks <= 1) return {1.0 - 2.0 * per_test, 1.0 - 2.0 * per_test};
    const double interim_tail = interim_share * per_test / static_cast<double>(looks - 1);
    const double last_tail = (1.0 - interim_share) * per_test;
    return {1.0 - 2.0 * interim_tail, 1.0 - 2.0 * last_tail};
}

}  // namespace

LookLevels sequential_look_levels(double alpha, std::size_t min_rounds, std::size_t max_rounds, std::size_t tests,
                                  double interim_share) {
    LookLevels levels;
    levels.looks = max_rounds >= min_rounds ? max_rounds - min_rounds + 1 : 1;
    const double per_test = alpha / static_cast<double>(std::max<std::size_t>(tests, 1));
    std::tie(levels.interim, levels.last) = spent_over_looks(per_test, levels.looks, interim_share);
    // TOST: each one-sided test at the equivalence alpha, so the two-sided interval is 1 - 2 alpha.
    std::tie(levels.equivalence_interim, levels.equivalence_last) =
        spent_over_looks(kEquivalenceAlpha, levels.looks, interim_share);
    return levels;
}

}  // namespace perfgate::gates
