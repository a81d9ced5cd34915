#include "pair_history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "perfgate/core/csv.hpp"
#include "perfgate/gates/file_name.hpp"
#include "perfgate/gates/samples.hpp"

namespace perfgate::gates::detail {

// Oldest first: the order in which a pair's flags are seen to change.
Expected<std::vector<NamedFile>> list_files(const std::string& dir, const std::string& host) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return make_error(fmt::format("{}: no such folder of result CSVs", dir));
    std::vector<NamedFile> files;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (!entry.is_regular_file()) continue;
        auto name = parse_benchmark_file_name(entry.path().string());
        if (!name || (!host.empty() && name->host != host)) continue;
        files.push_back({*name, entry.path().string()});
    }
    if (ec) return make_error(fmt::format("{}: {}", dir, ec.message()));
    std::sort(files.begin(), files.end(), [](const NamedFile& a, const NamedFile& b) {
        return a.name.date != b.name.date ? a.name.date < b.name.date : a.path < b.path;
    });
    return files;
}

namespace {

std::string machine_name(const ResultRow& r) { return r.machine_id.empty() ? unknown_machine : r.machine_id; }

// `group` cut into one view per machine (rows keep their order); the group whole when not split.
std::vector<std::pair<std::string, SampleGroup>> per_machine(const SampleGroup& group, bool split) {
    if (!split) return {{std::string(), group}};
    std::set<std::string> machines;
    for (const ResultRow* r : group.rows) machines.insert(machine_name(*r));
    std::vector<std::pair<std::string, SampleGroup>> out;
    for (const auto& m : machines) {
        SampleGroup view = group;
        std::erase_if(view.rows, [&](const ResultRow* r) { return machine_name(*r) != m; });
        std::erase_if(view.ok_rows, [&](const ResultRow* r) { return machine_name(*r) != m; });
        out.emplace_back(m, std::move(view));
    }
    return out;
}

class Collector {
public:
    explicit Collector(PairHistoryQuery query) : query_(std::move(query)) {}

    void add(const SampleGroup& g) {
        if (!query_.host.empty() && g.host != query_.host) return;
        for (const auto& [machine, view] : per_machine(g, query_.by_machine)) add_view(view, machine);
    }

    std::vector<PairHistory> finish() {
        std::vector<PairHistory> out;
        for (const auto& key : order_) {
            PairHistory h = std::move(pairs_.at(key).history);
            for (auto& [metric, runs] : h.by_metric)
                std::stable_sort(runs.begin(), runs.end(), [](const RunLevel& a, const RunLevel& b) { return a.when < b.when; });
            out.push_back(std::move(h));
        }
        return out;
    }

private:
    struct Entry {
        PairHistory history;
        std::string flags;
    };

    void add_view(const SampleGroup& g, const std::string& machine) {
        std::string key = g.host + '\x1f' + machine + '\x1f' + g.key();
        if (query_.keep_earlier_methods) key += '\x1f' + g.first().flags;
        auto [it, fresh] = pairs_.try_emplace(key);
        Entry& e = it->second;
        if (fresh) {
            e.history = PairHistory{g.host, machine, g.model, g.runtime, g.first().flags, {}, {}};
            e.flags = g.first().flags;
            order_.push_back(key);
        } else if (e.flags != g.first().flags) {
            // Other runtime flags are another method (llama-bench -t 1 after the CPU thread
            // default): the pair's history restarts with it, as the gate's does.
            e.flags = g.first().flags;
            e.history.by_metric.clear();
        }
        for (const auto& metric : gated_metrics()) {
            auto levels = run_levels(g, metric);
            auto& all = e.history.by_metric[metric];
            all.insert(all.end(), levels.begin(), levels.end());
        }
        for (const ResultRow* r : g.ok_rows)
            if (!r->runtime_commit.empty()) e.history.commit_of_run.try_emplace(run_key(*r), r->runtime_commit);
    }

    PairHistoryQuery query_;
    std::map<std::string, Entry> pairs_;
    std::vector<std::string> order_;
};

}  // namespace

Expected<std::vector<PairHistory>> read_pair_histories(const std::string& benchmarks_dir, const PairHistoryQuery& query) {
    auto files = list_files(benchmarks_dir, query.host);
    if (!files) return files.error();
    Collector collector(query);
    ModelCatalog catalog;
    for (const auto& f : *files) {
        auto parsed = read_results_csv(f.path);
        if (!parsed) return parsed.error();
        auto& rows = parsed->rows;
        std::erase_if(rows, [](const ResultRow& r) { return !r.status.ok() || !r.arm.empty(); });
        RowContext context;
        context.file_name = f.name;
        // The groups point into `rows`; the collector keeps only levels and strings, so the file
        // can go once its groups are read.
        for (const auto& g : group_rows(rows, context, catalog)) collector.add(g);
    }
    return collector.finish();
}

}  // namespace perfgate::gates::detail
