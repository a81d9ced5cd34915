#include "perfgate/gates/machine_spread.hpp"

#include <algorithm>
#include <cmath>

namespace perfgate::gates {

std::optional<MachineSpread> machine_spread(const std::vector<MachineLevels>& machines, std::size_t min_machines) {
    std::vector<double> means;
    std::vector<std::size_t> counts;
    double within_ss = 0;
    std::size_t within_df = 0, runs = 0;
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
        for (double x : logs) within_ss += (x - mean) * (x - mean);
        within_df += logs.size() - 1;
        runs += logs.size();
        means.push_back(mean);
        counts.push_back(logs.size());
    }
    const std::size_t k = means.size();
    if (k < std::max<std::size_t>(min_machines, 2)) return std::nullopt;

    MachineSpread s;
    s.machines = k;
    s.runs = runs;
    const double n_total = static_cast<double>(runs);
    double weighted_centre = 0, sum_sq_counts = 0;
    for (std::size_t i = 0; i < k; ++i) {
        s.centre += means[i];
        weighted_centre += means[i] * static_cast<double>(counts[i]);
        sum_sq_counts += static_cast<double>(counts[i] * counts[i]);
    }
    s.centre /= static_cast<double>(k);
    weighted_centre /= n_total;
    // The one-way analysis of variance with unequal counts: the between-machine mean square less the
    // within one, over n0, the effective runs per machine.
    double between_ms = 0;
    for (std::size_t i = 0; i < k; ++i)
        between_ms += static_cast<double>(counts[i]) * (means[i] - weighted_centre) * (means[i] - weighted_centre);
    between_ms /= static_cast<double>(k - 1);
    const double within_var = within_df > 0 ? within_ss / static_cast<double>(within_df) : 0.0;
    const double n0 = (n_total - sum_sq_counts / n_total) / static_cast<double>(k - 1);
    const double between_var = std::max(0.0, (between_ms - within_var) / std::max(n0, 1.0));
    s.within = std::sqrt(within_var);
    s.between = std::sqrt(between_var);
    // The centre is the plain mean of the machine means: each scatters by between^2 + within^2 / n.
    double centre_var = 0;
    for (std::size_t n : counts) centre_var += between_var + within_var / static_cast<double>(n);
    centre_var /= static_cast<double>(k * k);
    s.predictive = std::sqrt(between_var + within_var + centre_var);
    s.df = static_cast<double>(k - 1);
    return s;
}

}  // namespace perfgate::gates
