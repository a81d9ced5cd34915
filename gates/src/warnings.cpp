#include "warnings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace perfgate::gates::detail {

std::optional<std::string> fingerprint_change(const SampleGroup& baseline, const SampleGroup& current) {
    const ResultRow& b = baseline.ok_rows.empty() ? baseline.first() : *baseline.ok_rows.front();
    const ResultRow& c = current.ok_rows.empty() ? current.first() : *current.ok_rows.front();
    struct Field {
        const char* name;
        std::string ResultRow::*member;
    };
    static const Field fields[] = {
        {"hardware", &ResultRow::hardware},         {"device", &ResultRow::device},
        {"device_arch", &ResultRow::device_arch},   {"driver", &ResultRow::driver_version},
        {"rocm", &ResultRow::rocm_version},         {"hip", &ResultRow::hip_version},
        {"cuda", &ResultRow::cuda_version},
    };
    std::vector<std::string> changes;
    for (const auto& f : fields) {
        const auto &x = b.*(f.member), &y = c.*(f.member);
        if (x.empty() || y.empty() || x == y) continue;
        changes.push_back(fmt::format("{} {} -> {}", f.name, x, y));
    }
    // The machine fingerprint (docs/probes.md) is compared only for one machine: the gate judges a
    // run that knows its machine against that machine's rows alone. The kernel and CPU are named
    // when they are what changed; the other fields are in the hash only.
    if (!b.machine_fingerprint.empty() && !c.machine_fingerprint.empty() && b.machine_fingerprint != c.machine_fingerprint &&
        b.machine_id == c.machine_id) {
        changes.push_back(fmt::format("machine fingerprint {} -> {} on machine {}", b.machine_fingerprint,
                                      c.machine_fingerprint, c.machine_id));
        if (b.kernel != c.kernel) changes.push_back(fmt::format("kernel {} -> {}", b.kernel, c.kernel));
        if (b.cpu_model != c.cpu_model) changes.push_back(fmt::format("cpu {} -> {}", b.cpu_model, c.cpu_model));
    }
    if (changes.empty()) return std::nullopt;
    return fmt::format("fingerprint changed since the baseline: {}", fmt::join(changes, ", "));
}

Expected<std::optional<std::string>> superseded_baseline(BenchmarkHistory& history, const HistoryFile& baseline_file,
                                                         const SampleGroup& baseline, const std::string& run_date,
                                                         const std::vector<std::string>& spellings,
                                                         const ModelCatalog& catalog) {
    const std::string base_date = baseline.date().empty() ? baseline_file.name.date : baseline.date();
    if (base_date.empty() || run_date.empty() || baseline_file.name.series.empty()) return std::optional<std::string>{};
    for (HistoryFile* f : history.candidates(baseline_file.name.series, baseline.host, run_date)) {
        if (f == &baseline_file || f->identity == baseline_file.identity) continue;
        if (f->name.date <= base_date) break;  // newest first: nothing later can be in between
        if (f->name.date >= run_date || f->name.harness != baseline.harness) continue;
        auto mentions = BenchmarkHistory::mentions_any(*f, spellings);
        if (!mentions) return mentions.error();
        if (!*mentions) continue;
        if (auto st = BenchmarkHistory::load(*f, catalog); !st) return st.error();
        const SampleGroup* newer = match_in_file(*f, baseline, false);
        if (!newer || newer->ok_rows.empty()) continue;
        const std::string newer_date = newer->date().empty() ? f->name.date : newer->date();
        if (newer_date <= base_date || newer_date >= run_date) continue;
        auto was = baseline.samples("decode_tok_s"), now = newer->samples("decode_tok_s");
        std::string values;
        if (!was.empty() && !now.empty())
            values = fmt::format(" (decode {:.2f} -> {:.2f} tok/s)", was.front(), now.front());
        return std::optional<std::string>{fmt::format(
            "superseded baseline: a newer reading of {} exists in {} ({}){}, between the baseline ({}) and this run ({})",
            baseline.raw_model, newer->source(), newer_date, values, base_date, run_date)};
    }
    return std::optional<std::string>{};
}

}  // namespace perfgate::gates::detail
