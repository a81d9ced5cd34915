#include "comparison.hpp"

#include <fmt/format.h>

#include "perfgate/gates/calendar.hpp"

namespace perfgate::report {

std::optional<RuntimePair> parse_runtime_pair(std::string_view text) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos || text.find(':', colon + 1) != std::string_view::npos) return std::nullopt;
    RuntimePair pair{std::string(text.substr(0, colon)), std::string(text.substr(colon + 1))};
    if (pair.a.empty() || pair.b.empty() || pair.a == pair.b) return std::nullopt;
    return pair;
}

std::size_t Comparison::compared() const {
    std::size_t n = 0;
    for (const auto& m : models) n += m.decode_ratio ? 1 : 0;
    return n;
}

std::vector<const ModelRatio*> Comparison::failing() const {
    std::vector<const ModelRatio*> out;
    for (const auto& m : models)
        if (m.below_min) out.push_back(&m);
    return out;
}

RelativeGate Comparison::verdict() const {
    if (!min_ratio) return RelativeGate::none;
    if (compared() == 0) return RelativeGate::undecided;
    return failing().empty() ? RelativeGate::passed : RelativeGate::failed;
}

Comparison compare_runtimes(const ReportData& data, const RuntimePair& pair, std::optional<double> min_ratio,
                            long max_date_gap_days) {
    Comparison c;
    c.pair = pair;
    c.min_ratio = min_ratio;
    c.max_date_gap_days = max_date_gap_days;
    std::vector<double> decode_ratios, prefill_ratios;
    for (const auto& line : data.lines) {
        auto ia = line.cells.find(pair.a);
        auto ib = line.cells.find(pair.b);
        if (ia == line.cells.end() && ib == line.cells.end()) continue;
        ModelRatio m;
        m.line = &line;
        if (ia != line.cells.end()) m.format_a = ia->second.format.empty() ? line.format : ia->second.format;
        if (ib != line.cells.end()) m.format_b = ib->second.format.empty() ? line.format : ib->second.format;
        if (ia == line.cells.end()) m.not_compared = "measured on " + pair.b + " only";
        else if (ib == line.cells.end()) m.not_compared = "measured on " + pair.a + " only";
        else {
            const auto& a = ia->second;
            const auto& b = ib->second;
            const auto days = gates::calendar_days_apart(a.date, b.date);
            if (a.status != "ok") m.not_compared = pair.a + " " + a.status;
            else if (b.status != "ok") m.not_compared = pair.b + " " + b.status;
            else if (a.host != b.host) m.not_compared = fmt::format("different hosts ({} vs {})", a.host, b.host);
            else if (days && *days > max_date_gap_days)
                m.not_compared = fmt::format("measured {} days apart ({} vs {})", *days, a.date, b.date);
            else if (!a.decode || !b.decode) m.not_compared = "no decode reading";
            else if (b.decode->median <= 0) m.not_compared = pair.b + " decode is 0 tok/s (ratio undefined)";
            else {
                m.decode_ratio = a.decode->median / b.decode->median;
                decode_ratios.push_back(*m.decode_ratio);
                if (a.prefill && b.prefill && b.prefill->median > 0) {
                    m.prefill_ratio = a.prefill->median / b.prefill->median;
                    prefill_ratios.push_back(*m.prefill_ratio);
                }
                // Compared on the rounded-free medians: A < min_ratio x B.
                m.below_min = min_ratio && a.decode->median < *min_ratio * b.decode->median;
            }
        }
        c.models.push_back(std::move(m));
    }
    c.decode = spread_of(decode_ratios);
    c.prefill = spread_of(prefill_ratios);
    return c;
}

}  // namespace perfgate::report
