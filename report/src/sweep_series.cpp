#include "sweep_series.hpp"

#include <algorithm>

#include "perfgate/core/metric.hpp"

namespace perfgate::report {
namespace {

// The sweep and swept value of a cell: its first ok row's mark and setting.
std::optional<std::pair<SweepMembership, std::int64_t>> point_of(const RuntimeCell& cell) {
    for (const auto* group : cell.groups)
        for (const auto* row : group->ok_rows) {
            auto sweep = sweep_of(row->flags);
            if (!sweep) return std::nullopt;
            auto value = sweep_value(*row, sweep->axis);
            if (!value) return std::nullopt;
            return std::make_pair(*sweep, *value);
        }
    return std::nullopt;
}

}  // namespace

std::size_t SweepSeries::points() const {
    std::set<std::int64_t> values;
    for (const auto& [key, by_value] : medians)
        for (const auto& [value, median] : by_value) values.insert(value);
    return values.size();
}

std::vector<SweepSeries> sweep_series(const ReportData& data) {
    std::vector<SweepSeries> out;
    for (const auto& line : data.lines)
        for (const auto& [runtime, cell] : line.cells) {
            if (cell.status != "ok") continue;
            auto point = point_of(cell);
            if (!point) continue;
            // Not a structured binding: clang 14 cannot capture one in the lambda below.
            const SweepMembership& sweep = point->first;
            const std::int64_t value = point->second;
            auto it = std::find_if(out.begin(), out.end(), [&](const SweepSeries& s) {
                return s.entry == sweep.entry && s.model == line.model && s.axis == sweep.axis;
            });
            if (it == out.end()) it = out.insert(out.end(), SweepSeries{sweep.entry, line.model, sweep.axis, {}, {}, {}});
            it->runtime_of[value] = runtime;
            it->cell_of[value] = &cell;
            for (const auto& key : registered_metric_keys())
                if (auto s = cell.spread(key)) it->medians[key][value] = s->median;
        }
    std::erase_if(out, [](const SweepSeries& s) { return s.points() < 2; });
    return out;
}

std::set<std::string> sweep_point_runtimes(const std::vector<SweepSeries>& sweeps) {
    std::set<std::string> out;
    for (const auto& s : sweeps)
        for (const auto& [value, runtime] : s.runtime_of) out.insert(runtime);
    return out;
}

}  // namespace perfgate::report
