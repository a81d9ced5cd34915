#include "ref_rules.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/core/stats.hpp"

namespace perfgate::gates::detail {

Expected<std::optional<std::string>> unknown_at_ref(BenchmarkHistory& history, const SampleGroup& current,
                                                    const std::vector<std::string>& series,
                                                    const std::vector<std::string>& spellings,
                                                    const ModelCatalog& catalog, const std::string& ref) {
    std::vector<HistoryFile*> files;
    for (const auto& s : series)
        for (HistoryFile* f : history.candidates(s, current.host, "")) files.push_back(f);
    if (files.empty())
        return std::optional<std::string>{fmt::format(
            "host {} has no history at {} (no benchmarks/{{{}}}_{}_<date>.csv there), so nothing was compared: at a base "
            "ref a run on a host without baselines fails (a host tag the change switched, or a host that has not joined "
            "yet: its first baseline is recorded by a run on the default branch)",
            current.host, ref, fmt::join(series, ","), current.host)};
    if (current.date().empty()) return std::optional<std::string>{};
    // The candidates dated on or before the run held no reading of the pair; a later file that
    // does means the run's date is earlier than its baselines.
    for (HistoryFile* f : files) {
        if (f->name.date <= current.date()) continue;
        auto mentions = BenchmarkHistory::mentions_any(*f, spellings);
        if (!mentions) return mentions.error();
        if (!*mentions) continue;
        if (auto st = BenchmarkHistory::load(*f, catalog); !st) return st.error();
        if (match_in_file(*f, current, false))
            return std::optional<std::string>{fmt::format(
                "the run is dated {}, before every reading of this pair at {} ({} holds one): a clock set back would "
                "make every pair new, so at a base ref it fails",
                current.date(), ref, f->display_path)};
    }
    return std::optional<std::string>{};
}

MetricCheck not_comparable_metric(const std::string& metric, const std::string& reason,
                                  const std::vector<double>& before, const std::vector<double>& now) {
    MetricCheck m;
    m.metric = metric;
    m.verdict = Verdict::not_comparable;
    m.reason = reason;
    m.baseline_samples = before;
    m.current_samples = now;
    if (!before.empty()) m.baseline_value = median(before);
    if (!now.empty()) m.current_value = median(now);
    return m;
}

void fail_not_comparable_at_ref(PairReport& pair, const std::string& ref) {
    if (pair.verdict != Verdict::not_comparable) return;
    const std::string why = fmt::format(
        "; at {} a pair that cannot be compared with its baseline fails: the change altered what is measured", ref);
    pair.verdict = Verdict::failed;
    pair.reason += why;
    for (auto& m : pair.metrics) {
        if (m.verdict != Verdict::not_comparable) continue;
        m.verdict = Verdict::failed;
        m.reason += why;
    }
}

}  // namespace perfgate::gates::detail
