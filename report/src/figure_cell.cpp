#include "figure_cell.hpp"

#include <fmt/format.h>

namespace perfgate::report {

std::string figure_cell_text(const RuntimeCell& cell, const Metric& m) {
    const auto s = cell.spread(std::string(m.key));
    if (!s) return "-";
    const auto shown = [&](double v) { return fmt::format("{:.4g}", v / m.display_scale); };
    if (s->n == 1) return shown(s->median);
    return fmt::format("{} ({}–{}, n={})", shown(s->median), shown(s->min), shown(s->max), s->n);
}

}  // namespace perfgate::report
