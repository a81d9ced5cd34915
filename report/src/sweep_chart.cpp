#include "sweep_chart.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

#include "perfgate/core/metric.hpp"
#include "escape.hpp"

namespace perfgate::report {
namespace {

// A point's figure: the cell's spread of that metric (decode and prefill have their own fields).
std::optional<double> median_of(const RuntimeCell& cell, const std::string& key) {
    if (key == "decode_tok_s") return cell.decode ? std::optional(cell.decode->median) : std::nullopt;
    if (key == "prefill_tok_s") return cell.prefill ? std::optional(cell.prefill->median) : std::nullopt;
    auto it = cell.figures.find(key);
    return it == cell.figures.end() ? std::nullopt : std::optional(it->second.median);
}

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
            if (it == out.end()) it = out.insert(out.end(), SweepSeries{sweep.entry, line.model, sweep.axis, {}});
            for (const auto& key : registered_metric_keys())
                if (auto median = median_of(cell, key)) it->medians[key][value] = *median;
        }
    std::erase_if(out, [](const SweepSeries& s) { return s.points() < 2; });
    return out;
}

GnuplotJob sweep_chart_job(const SweepSeries& sweep, const std::string& data_file, const std::string& svg_file) {
    // One panel per display unit, in the metric table's order; one line per metric in it.
    std::vector<std::string> units;
    std::map<std::string, std::vector<const Metric*>> metrics_of_unit;
    for (const auto& m : metrics()) {
        if (!sweep.medians.count(std::string(m.key))) continue;
        const std::string unit(m.display_unit);
        if (!metrics_of_unit.count(unit)) units.push_back(unit);
        metrics_of_unit[unit].push_back(&m);
    }
    std::set<std::int64_t> values;
    GnuplotJob job;
    std::size_t index = 0;
    std::string panels;
    for (const auto& unit : units) {
        std::string plots;
        for (const Metric* m : metrics_of_unit[unit]) {
            if (index > 0) job.data += "\n\n";  // gnuplot index separator
            for (const auto& [value, median] : sweep.medians.at(std::string(m->key))) {
                job.data += fmt::format("{} {}\n", value, median / m->display_scale);
                values.insert(value);
            }
            plots += fmt::format("{}{} index {} using 1:2 with linespoints lw 1.5 pt 7 ps 0.6 title {}",
                                 plots.empty() ? "" : ", \\\n     ", index == 0 ? gnuplot_string(data_file) : "''", index,
                                 gnuplot_string(std::string(m->label)));
            ++index;
        }
        panels += fmt::format("set ylabel {}\nset yrange [0:*]\nplot {}\n", gnuplot_string(unit), plots);
    }
    const auto lo = *values.begin(), hi = *values.rbegin();
    std::string xtics;
    for (const auto v : values) xtics += fmt::format("{}'{}' {}", xtics.empty() ? "" : ", ", v, v);
    auto& s = job.script;
    s += fmt::format("set terminal svg noenhanced size 640,{} dynamic background rgb 'white' font 'sans,10'\n",
                     60 + 200 * static_cast<int>(units.size()));
    s += "set output " + gnuplot_string(svg_file) + "\n";
    // Settings that every panel shares come before the multiplot.
    if (lo > 0 && hi / lo >= 8) s += "set logscale x 2\n";
    const double pad = lo > 0 && hi / lo >= 8 ? 0 : 0.05 * static_cast<double>(hi - lo);
    s += fmt::format("set xrange [{}:{}]\n", static_cast<double>(lo) * (lo > 0 && hi / lo >= 8 ? 0.8 : 1) - pad,
                     static_cast<double>(hi) * (lo > 0 && hi / lo >= 8 ? 1.25 : 1) + pad);
    s += "set xtics nomirror (" + xtics + ")\n";
    s += "set xlabel " + gnuplot_string(std::string(sweep_axis_name(sweep.axis))) + "\n";
    s += "set grid\nset key outside right top font ',8'\n";
    s += fmt::format("set multiplot layout {},1 title {}\n", units.size(),
                     gnuplot_string(fmt::format("{}: {} over {} (median of each point)", sweep.model, sweep.entry,
                                                sweep_axis_name(sweep.axis))));
    s += panels;
    s += "unset multiplot\n";
    return job;
}

}  // namespace perfgate::report
