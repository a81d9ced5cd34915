#include "perfgate/gates/noise_model.hpp"

#include <algorithm>
#include <cmath>

#include "perfgate/core/metric.hpp"
#include "perfgate/gates/statistics.hpp"

namespace perfgate::gates {

namespace {

std::vector<double> metric_samples(const ResultRow& r, const std::string& metric) {
    return (r.*perfgate::metric(metric).samples)();
}

}  // namespace

std::vector<double> run_samples(const SampleGroup& group, const std::string& metric, const std::string& run) {
    std::vector<double> out;
    for (const ResultRow* r : group.ok_rows) {
        if (run_key(*r) != run) continue;
        auto s = metric_samples(*r, metric);
        out.insert(out.end(), s.begin(), s.end());
    }
    return out;
}

std::vector<RunLevel> run_levels(const SampleGroup& group, const std::string& metric) {
    // Rows that did not measure the metric take no part, so a run of such rows only is no run.
    std::vector<const ResultRow*> measured;
    for (const ResultRow* r : group.ok_rows)
        if (!metric_samples(*r, metric).empty()) measured.push_back(r);
    std::vector<RunLevel> levels;
    for (const RowRun& run : group_into_runs(measured)) {
        RunLevel level{run.run, "", 0, run.rows.size()};
        std::vector<double> samples;
        for (const ResultRow* r : run.rows) {
            const std::string& when = !r->timestamp.empty() ? r->timestamp : r->date;
            if (when > level.when) level.when = when;
            const auto s = metric_samples(*r, metric);
            samples.insert(samples.end(), s.begin(), s.end());
        }
        level.value = median(samples);
        levels.push_back(std::move(level));
    }
    // Chronological; runs of one time keep the order of their first rows (file order).
    std::stable_sort(levels.begin(), levels.end(), [](const RunLevel& x, const RunLevel& y) { return x.when < y.when; });
    return levels;
}

std::optional<double> between_run_sigma(const std::vector<double>& levels) { return between_run_sigma(levels, {}); }

std::optional<double> between_run_sigma(const std::vector<double>& levels, const std::vector<std::size_t>& starts) {
    if (levels.size() < 3) return std::nullopt;
    std::vector<double> logs;
    for (double v : levels) {
        if (!(v > 0) || !std::isfinite(v)) return std::nullopt;
        logs.push_back(std::log(v));
    }
    std::vector<std::size_t> bounds{0};
    for (std::size_t s : starts)
        if (s > bounds.back() && s < logs.size()) bounds.push_back(s);
    bounds.push_back(logs.size());
    // 1/Phi^-1(3/4): the MAD of a normal sample is 0.6745 sigma.
    constexpr double mad_to_sigma = 1.482602218505602;
    std::vector<double> diffs, dev;
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
        const auto first = logs.begin() + static_cast<long>(bounds[k]), last = logs.begin() + static_cast<long>(bounds[k + 1]);
        for (auto it = first + 1; it < last; ++it) diffs.push_back(std::fabs(*it - *(it - 1)));
        if (last - first < 3) continue;
        const double centre = median(std::vector<double>(first, last));
        for (auto it = first; it < last; ++it) dev.push_back(std::fabs(*it - centre));
    }
    if (diffs.size() < 2) return std::nullopt;
    // A successive difference has variance 2 sigma^2.
    const double successive = mad_to_sigma * median(diffs) / std::sqrt(2.0);
    const double about_median = dev.empty() ? 0.0 : mad_to_sigma * median(dev);
    return std::max(successive, about_median);
}

}  // namespace perfgate::gates
