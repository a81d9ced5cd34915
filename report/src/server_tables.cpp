#include "server_tables.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "escape.hpp"
#include "figure_cell.hpp"
#include "perfgate/core/metric.hpp"

namespace perfgate::report {
namespace {

bool has_serving_figure(const RuntimeCell& cell) {
    return std::any_of(cell.figures.begin(), cell.figures.end(), [](const auto& figure) {
        const Metric* m = find_metric(figure.first);
        return m && m->measure == Measure::serving;
    });
}

// The cells of the servers, line by line in the page's order, then server by server.
template <typename Visit>
void for_each_server_cell(const ReportData& data, const std::vector<std::string>& servers, Visit visit) {
    for (const auto& line : data.lines)
        for (const auto& server : servers)
            if (auto it = line.cells.find(server); it != line.cells.end()) visit(line, server, it->second);
}

}  // namespace

std::vector<std::string> server_runtimes(const ReportData& data, const std::set<std::string>& excluded) {
    std::vector<std::string> out;
    for (const auto& runtime : data.runtimes) {
        if (excluded.count(runtime)) continue;
        bool serving = false, offline = false;
        for (const auto& line : data.lines)
            if (auto it = line.cells.find(runtime); it != line.cells.end()) {
                serving = serving || has_serving_figure(it->second);
                offline = offline || it->second.decode || it->second.prefill;
            }
        if (serving && !offline) out.push_back(runtime);
    }
    return out;
}

std::string server_tables(const ReportData& data, const std::vector<std::string>& servers) {
    if (servers.empty()) return {};
    std::vector<const Metric*> shown;
    for (const auto& m : metrics()) {
        bool any = false;
        for_each_server_cell(data, servers, [&](const ModelLine&, const std::string&, const RuntimeCell& cell) {
            any = any || cell.spread(std::string(m.key)).has_value();
        });
        if (any) shown.push_back(&m);
    }
    std::string p = "### Servers\n\nEach serving pair (docs/serving.md): the median of each figure's samples, with "
                    "their range and count when there are several.\n\n";
    std::string head = "| Model | Server | Format | Status |", rule = "|---|---|---|---|";
    for (const auto* m : shown) {
        head += fmt::format(" {} {} |", m->label, m->display_unit);
        rule += "---:|";
    }
    p += head + "\n" + rule + "\n";
    for_each_server_cell(data, servers, [&](const ModelLine& line, const std::string& server, const RuntimeCell& cell) {
        const std::string& format = cell.format.empty() ? line.format : cell.format;
        std::string row = fmt::format("| {} | {} | {} | {} |", markdown_text(line.model), markdown_text(server),
                                      format.empty() ? "-" : markdown_text(format), markdown_text(cell.status));
        for (const auto* m : shown) row += " " + figure_cell_text(cell, *m) + " |";
        p += row + "\n";
    });
    return p + "\n";
}

}  // namespace perfgate::report
