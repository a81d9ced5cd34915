#include "sweep_tables.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <fmt/ranges.h>

#include "perfgate/core/metric.hpp"
#include "escape.hpp"
#include "figure_cell.hpp"

namespace perfgate::report {
namespace {

std::string formats_of(const SweepSeries& sweep) {
    std::vector<std::string> formats;
    for (const auto& [value, cell] : sweep.cell_of)
        if (!cell->format.empty() && std::find(formats.begin(), formats.end(), cell->format) == formats.end())
            formats.push_back(cell->format);
    return formats.empty() ? std::string() : fmt::format(" ({})", fmt::join(formats, ", "));
}

}  // namespace

std::string sweep_title(const SweepSeries& sweep) {
    std::vector<std::int64_t> values;
    for (const auto& [value, runtime] : sweep.runtime_of) values.push_back(value);
    return fmt::format("{} ({} {})", markdown_text(sweep.entry), sweep_axis_name(sweep.axis), fmt::join(values, ", "));
}

std::string sweep_tables(const std::vector<SweepSeries>& sweeps) {
    if (sweeps.empty()) return {};
    std::string p = "### Sweeps\n\nEach sweep's points over its setting (docs/serving.md, \"Sweeps\"): the median of each "
                    "point's samples, with their range and count when there are several. Its chart is under *Charts*.\n\n";
    for (const auto& sweep : sweeps) {
        std::vector<const Metric*> shown;
        for (const auto& m : metrics())
            if (sweep.medians.count(std::string(m.key))) shown.push_back(&m);
        p += fmt::format("**{} over {}, {}{}**\n\n", markdown_text(sweep.entry), sweep_axis_name(sweep.axis),
                         markdown_text(sweep.model), markdown_text(formats_of(sweep)));
        std::string head = fmt::format("| {} | Point |", sweep_axis_name(sweep.axis)), rule = "|---:|---|";
        for (const auto* m : shown) {
            head += fmt::format(" {} {} |", m->label, m->display_unit);
            rule += "---:|";
        }
        p += head + "\n" + rule + "\n";
        for (const auto& [value, cell] : sweep.cell_of) {
            std::string row = fmt::format("| {} | {} |", value, markdown_text(sweep.runtime_of.at(value)));
            for (const auto* m : shown) row += " " + figure_cell_text(*cell, *m) + " |";
            p += row + "\n";
        }
        p += "\n";
    }
    return p;
}

}  // namespace perfgate::report
