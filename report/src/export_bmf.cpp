#include "perfgate/report/export_bmf.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <list>
#include <map>
#include <nlohmann/json.hpp>

#include "distinct.hpp"
#include "perfgate/core/metric.hpp"
#include "perfgate/core/stats.hpp"
#include "perfgate/gates/samples.hpp"
#include "perfgate/report/report_data.hpp"

namespace perfgate::report {
namespace {

// One pair of the export: the groups of every file that hold it (a run that crossed midnight
// wrote two day files), merged by the gate's identity of a pair.
struct Pair {
    std::vector<const gates::SampleGroup*> groups;
    const gates::SampleGroup& first() const { return *groups.front(); }
};

std::string short_name(const gates::SampleGroup& g) { return g.runtime + "/" + g.model; }

// The short name when it is unique in the export, else with what tells the pair apart.
std::string benchmark_name(const gates::SampleGroup& g, bool ambiguous) {
    std::string name = short_name(g);
    if (!ambiguous) return name;
    if (!g.harness.empty() && g.harness != "text") name += " [" + g.harness + "]";
    if (g.batch) name += fmt::format(" (batch {})", *g.batch);
    if (g.prompt_target_len) name += fmt::format(" (prompt {})", *g.prompt_target_len);
    return name;
}

nlohmann::ordered_json measures(const Pair& pair) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const Metric& m : metrics()) {
        std::vector<double> samples;
        for (const auto* g : pair.groups) {
            const auto s = g->samples(std::string(m.key));
            samples.insert(samples.end(), s.begin(), s.end());
        }
        if (samples.empty()) continue;
        const auto [low, high] = std::minmax_element(samples.begin(), samples.end());
        out[std::string(m.key)] = {{"value", median(samples)}, {"lower_value", *low}, {"upper_value", *high}};
    }
    return out;
}

}  // namespace

Expected<std::string> export_bmf(const BmfExportOptions& options) {
    auto data = load_report_data(options.results);
    if (!data) return data.error();
    const gates::ModelCatalog no_aliases;
    std::list<std::vector<ResultRow>> kept;      // the rows of the run asked for; groups point into them
    std::list<std::vector<gates::SampleGroup>> grouped;
    std::map<std::string, Pair> pairs;           // by SampleGroup::key()
    std::vector<std::string> order;              // keys in order of first appearance
    detail::OrderedUnique hosts;
    std::size_t rows_of_run = 0;
    for (const auto& f : data->files) {
        auto& rows = kept.emplace_back();
        for (const auto& r : f->file.rows)
            if (!options.run_id || r.run_id == *options.run_id) rows.push_back(r);
        rows_of_run += rows.size();
        gates::RowContext context;
        context.file_name = f->name;
        for (const auto& g : grouped.emplace_back(gates::group_rows(rows, context, no_aliases))) {
            if (g.ok_rows.empty()) continue;  // a skipped or failed pair has no reading to track
            hosts.add(g.host);
            auto [it, added] = pairs.try_emplace(g.key());
            if (added) order.push_back(g.key());
            it->second.groups.push_back(&g);
        }
    }
    const std::string files = fmt::format("{}", fmt::join(options.results, ", "));
    if (options.run_id && rows_of_run == 0) return make_error(fmt::format("{}: no row of run {}", files, *options.run_id));
    if (pairs.empty()) return make_error(fmt::format("{}: no ok reading to export", files));
    if (const auto host_list = hosts.take(); host_list.size() > 1)
        return make_error(fmt::format("{}: rows of {} hosts ({}); Bencher keeps hosts apart as testbeds, so export one "
                                      "host at a time (its files, or --run-id)",
                                      files, host_list.size(), fmt::join(host_list, ", ")));
    std::map<std::string, std::size_t> named;
    for (const auto& key : order) ++named[short_name(pairs.at(key).first())];
    nlohmann::ordered_json doc = nlohmann::ordered_json::object();
    for (const auto& key : order) {
        const Pair& p = pairs.at(key);
        doc[benchmark_name(p.first(), named[short_name(p.first())] > 1)] = measures(p);
    }
    return doc.dump(2) + "\n";
}

}  // namespace perfgate::report
