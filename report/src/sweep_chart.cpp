#include "sweep_chart.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

#include "perfgate/core/metric.hpp"
#include "escape.hpp"

namespace perfgate::report {

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
        double low = 0, high = 0;  // of the panel's figures
        for (const Metric* m : metrics_of_unit[unit]) {
            if (index > 0) job.data += "\n\n";  // gnuplot index separator
            for (const auto& [value, median] : sweep.medians.at(std::string(m->key))) {
                job.data += fmt::format("{} {}\n", value, median / m->display_scale);
                values.insert(value);
                low = low == 0 ? median : std::min(low, median);
                high = std::max(high, median);
            }
            plots += fmt::format("{}{} index {} using 1:2 with linespoints lw 1.5 pt 7 ps 0.6 title {}",
                                 plots.empty() ? "" : ", \\\n     ", index == 0 ? gnuplot_string(data_file) : "''", index,
                                 gnuplot_string(std::string(m->label)));
            ++index;
        }
        // A panel of figures 20 times apart or more (a 3 ms ITL beside a 400 ms TTFT p99) is drawn
        // on a log scale, else the small ones lie flat on the axis.
        const bool log_y = low > 0 && high / low >= 20;
        panels += fmt::format("set ylabel {}\n{}plot {}\n{}", gnuplot_string(unit),
                              log_y ? "set logscale y\nset yrange [*:*]\n" : "set yrange [0:*]\n", plots,
                              log_y ? "unset logscale y\n" : "");
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
