#include "perfgate/gates/machine_spread.hpp"

#include <algorithm>
#include <cmath>

namespace perfgate::gates {
namespace {

// The one-way layout of the machines' log levels: each machine's mean and run count, and the
// pooled sum of squares within machines.
struct Layout {
    std::vector<double> means;
    std::vector<std::size_t> counts;
    double within_ss = 0;
    std::size_t within_df = 0, runs = 0;
};

// nullopt when a level is not positive.
std::optional<Layout> layout_of(const std::vector<MachineLevels>& machines) {
    Layout l;
    for (const auto& m : machines) {
        if (m.levels.empty()) continue;
        std::vector<double> logs;
        for (double v : m.levels) {
            if (!(v > 0)) return std::nullopt;
            logs.push_back(std::log(v));
        }
        double mean = 0;
        for (double x : logs) mean += x;
        mean /= static_cast<double>(logs.size());
        for (double x : logs) l.within_ss += (x - mean) * (x - mean);
        l.within_df += logs.size() - 1;
        l.runs += logs.size();
        l.means.push_back(mean);
        l.counts.push_back(logs.size());
    }
    return l;
}

// The mean squares of the one-way analysis of variance with unequal counts, and n0, the effective
// runs per machine.
struct MeanSquares {
    double between = 0, within = 0, n0 = 1;
};

MeanSquares mean_squares(const Layout& l) {
    const std::size_t k = l.means.size();
    const double n_total = static_cast<double>(l.runs);
    double weighted_centre = 0, sum_sq_counts = 0;
    for (std::size_t i = 0; i < k; ++i) {
        weighted_centre += l.means[i] * static_cast<double>(l.counts[i]);
        sum_sq_counts += static_cast<double>(l.counts[i] * l.counts[i]);
    }
    weighted_centre /= n_total;
    MeanSquares ms;
    for (std::size_t i = 0; i < k; ++i)
        ms.between += static_cast<double>(l.counts[i]) * (l.means[i] - weighted_centre) * (l.means[i] - weighted_centre);
    ms.between /= static_cast<double>(k - 1);
    ms.within = l.within_df > 0 ? l.within_ss / static_cast<double>(l.within_df) : 0.0;
    ms.n0 = std::max((n_total - sum_sq_counts / n_total) / static_cast<double>(k - 1), 1.0);
    return ms;
}

}  // namespace

std::optional<MachineSpread> machine_spread(const std::vector<MachineLevels>& machines, std::size_t min_machines) {
    const auto layout = layout_of(machines);
    if (!layout) return std::nullopt;
    const Layout& l = *layout;
    const std::size_t k = l.means.size();
    if (k < std::max<std::size_t>(min_machines, 2)) return std::nullopt;

    MachineSpread s;
    s.machines = k;
    s.runs = l.runs;
    for (double m : l.means) s.centre += m;
    s.centre /= static_cast<double>(k);
    const MeanSquares ms = mean_squares(l);
    // A between-machine mean square below the within one says the machines do not differ beyond
    // their runs' scatter; it is taken as equal to it (between_var 0), never as less, so the spread
    // and its degrees of freedom below stay on the cautious side.
    const double between_eff = std::max(ms.between, ms.within);
    const double between_var = (between_eff - ms.within) / ms.n0;
    s.within = std::sqrt(ms.within);
    s.between = std::sqrt(between_var);
    // The centre is the plain mean of the machine means: each scatters by between^2 + within^2 / n.
    double inverse_counts = 0;
    for (std::size_t n : l.counts) inverse_counts += 1.0 / static_cast<double>(n);
    const double kd = static_cast<double>(k);
    const double centre_var = between_var / kd + ms.within * inverse_counts / (kd * kd);
    s.predictive = std::sqrt(between_var + ms.within + centre_var);
    // Its degrees of freedom (Satterthwaite): the predictive variance is a sum of the two mean
    // squares, between machines (machines - 1 degrees of freedom) and within them (runs - machines),
    // so a t with machines - 1 would treat the well-measured run-to-run part as if it were read off
    // a handful of machines too. H200 llama-3.2-1b decode on the 6 machines of benchmarks/: within
    // 1.4%, between 0.7%, so most of the spread is the within part and the t's degrees of freedom
    // rise from 5 to 28 (its 99.9% quantile from 5.9 to 3.4).
    const double from_between = between_eff * (1.0 + 1.0 / kd) / ms.n0;
    const double from_within = ms.within * (1.0 + inverse_counts / (kd * kd)) - ms.within * (1.0 + 1.0 / kd) / ms.n0;
    const double between_df = kd - 1.0;
    double denominator = from_between * from_between / between_df;
    if (l.within_df > 0) denominator += from_within * from_within / static_cast<double>(l.within_df);
    const double total = from_between + from_within;
    s.df = denominator > 0 ? std::max(between_df, total * total / denominator) : between_df;
    return s;
}

}  // namespace perfgate::gates
