#include "perfgate/gates/reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "perfgate/gates/statistics.hpp"
#include "render_common.hpp"

namespace perfgate::gates {

std::vector<SegmentStart> acknowledged_starts(const std::vector<RunLevel>& levels,
                                              const std::vector<const Acknowledgement*>& entries, const std::string& now) {
    std::vector<SegmentStart> starts;
    for (const Acknowledgement* a : entries) {  // oldest "from" first
        if (!now.empty() && a->from > now) continue;  // not in force yet for this run
        const auto it = std::find_if(levels.begin(), levels.end(), [&](const RunLevel& l) { return l.when >= a->from; });
        const auto at = static_cast<std::size_t>(it - levels.begin());
        if (at == 0 && !levels.empty()) continue;  // the history starts at or after it: nothing before to leave
        SegmentStart s{at, fmt::format("acknowledged from {} ({}: {})", a->from, a->source, a->why), a->level};
        if (!starts.empty() && starts.back().at == at) starts.back() = std::move(s);
        else starts.push_back(std::move(s));
    }
    return starts;
}

double floor_in_log(const Metric& m, double max_drop) {
    return m.better == Better::higher ? -std::log(1.0 - max_drop) : std::log(1.0 + max_drop);
}

double reference_variance_factor(std::size_t count) {
    // The median of n normal draws has variance about (pi/2) sigma^2 / n; of one or two, the mean's.
    if (count == 0) return 1.0;
    return (count <= 2 ? 1.0 : std::numbers::pi / 2) / static_cast<double>(count);
}

namespace {

void set_reference_runs(Reference& r, std::size_t n, const ReferenceRule& rule) {
    r.first = r.starts.back();
    r.count = std::min(std::max<std::size_t>(rule.runs, 1), n - r.first);
}

}  // namespace

Reference find_reference(const std::vector<RunLevel>& levels, const std::vector<SegmentStart>& acknowledged,
                         const Metric& m, double max_drop, const ReferenceRule& rule) {
    Reference r;
    r.starts.push_back(0);
    const std::size_t n = levels.size();
    for (const auto& s : acknowledged) {
        if (s.at <= r.starts.back()) continue;
        r.starts.push_back(s.at);
        r.moved = s.why;
        r.level = s.level;
    }
    set_reference_runs(r, n, rule);
    if (r.count == 0) return r;
    r.level.reset();

    // Sustained improvement: the latest runs, all beyond max(floor, 3 sigma) better than the
    // reference, start a segment of their own. Sigma is the spread within segments so far, the
    // steps found among the runs included (noise_segments), so the improvement is not its own noise.
    std::vector<double> values;
    for (const auto& l : levels) values.push_back(l.value);
    const std::vector<std::size_t> inner(r.starts.begin() + 1, r.starts.end());
    const double sigma = between_run_sigma(values, noise_segments(values, inner)).value_or(0.0);
    const double bound = std::max(floor_in_log(m, max_drop), 3 * sigma);
    std::vector<double> ref_runs(values.begin() + static_cast<long>(r.first),
                                 values.begin() + static_cast<long>(r.first + r.count));
    const double ref = median(ref_runs);
    if (!(ref > 0)) return r;
    std::size_t i = n;
    while (i > r.first + r.count && values[i - 1] > 0 && -worsening_log(m, std::log(values[i - 1] / ref)) > bound) --i;
    if (n - i >= std::max<std::size_t>(rule.sustained, 1)) {
        r.starts.push_back(i);
        r.moved = fmt::format("moved up by a sustained improvement: the {} runs since {} are all better than the "
                              "earlier reference {} beyond the floor and 3 times the spread",
                              n - i, levels[i].run, detail::number(std::string(m.key), ref));
        set_reference_runs(r, n, rule);
    }
    return r;
}

}  // namespace perfgate::gates
