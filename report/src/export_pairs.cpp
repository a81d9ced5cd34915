#include "export_pairs.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "distinct.hpp"

namespace perfgate::report {

std::vector<double> ExportPair::samples(const std::string& metric) const {
    std::vector<double> out;
    for (const auto* g : groups) {
        const auto s = g->samples(metric);
        out.insert(out.end(), s.begin(), s.end());
    }
    return out;
}

Expected<ExportPairs> collect_export_pairs(const std::vector<std::string>& results, const std::optional<std::string>& run_id) {
    auto data = load_report_data(results);
    if (!data) return data.error();
    ExportPairs out;
    out.data = std::move(*data);
    out.files = fmt::format("{}", fmt::join(results, ", "));
    const gates::ModelCatalog no_aliases;
    detail::OrderedUnique hosts, runs;
    std::size_t rows_of_run = 0;
    for (const auto& f : out.data.files) {
        auto& rows = out.kept.emplace_back();
        for (const auto& r : f->file.rows)
            if (!run_id || r.run_id == *run_id) rows.push_back(r);
        rows_of_run += rows.size();
        gates::RowContext context;
        context.file_name = f->name;
        for (const auto& g : out.grouped.emplace_back(gates::group_rows(rows, context, no_aliases))) {
            if (g.ok_rows.empty()) continue;  // a skipped or failed pair has no reading to track
            hosts.add(g.host);
            for (const auto* r : g.ok_rows) runs.add(r->run_id);
            auto [it, added] = out.by_key.try_emplace(g.key());
            if (added) out.pairs.push_back(&it->second);
            it->second.groups.push_back(&g);
        }
    }
    if (run_id && rows_of_run == 0) return make_error(fmt::format("{}: no row of run {}", out.files, *run_id));
    if (out.pairs.empty()) return make_error(fmt::format("{}: no ok reading to export", out.files));
    out.hosts = hosts.take();
    out.run_ids = runs.take();
    return out;
}

std::optional<Error> more_than_one_run(const ExportPairs& e, const std::string& tool, const std::string& why) {
    if (e.run_ids.size() <= 1) return std::nullopt;
    const std::size_t shown = std::min<std::size_t>(3, e.run_ids.size());
    return Error{fmt::format("{}: rows of {} runs ({}{}); {} {}, so export one run at a time with --run-id", e.files,
                             e.run_ids.size(), fmt::join(e.run_ids.begin(), e.run_ids.begin() + static_cast<long>(shown), ", "),
                             e.run_ids.size() > 3 ? ", ..." : "", tool, why)};
}

}  // namespace perfgate::report
