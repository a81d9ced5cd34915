#include "perfgate/report/history_series.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <boost/filesystem.hpp>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/row_runs.hpp"
#include "perfgate/gates/statistics.hpp"

namespace perfgate::report {
namespace fs = boost::filesystem;

namespace {

using LineKey = std::tuple<std::string, std::string, std::optional<std::int64_t>>;

std::string canonical_or_self(const std::string& path) {
    boost::system::error_code ec;
    auto c = fs::weakly_canonical(path, ec);
    return ec ? path : c.string();
}

}  // namespace

History collect_history(const std::string& dir, const ReportData& data) {
    History h;
    std::set<std::string> harnesses;
    for (const auto& line : data.lines) harnesses.insert(line.harness);

    std::vector<std::string> paths;
    std::set<std::string> seen;
    for (const auto& f : data.files)
        if (seen.insert(canonical_or_self(f->file.path)).second) paths.push_back(f->file.path);
    boost::system::error_code ec;
    if (!dir.empty() && fs::is_directory(dir, ec)) {
        std::vector<std::string> found;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const auto p = it->path();
            if (!fs::is_regular_file(p, ec)) continue;
            auto name = gates::parse_benchmark_file_name(p.filename().string());
            if (!name) continue;
            if (std::find(data.hosts.begin(), data.hosts.end(), name->host) == data.hosts.end()) continue;
            if (!harnesses.count(name->harness)) continue;
            found.push_back(p.string());
        }
        std::sort(found.begin(), found.end());
        for (const auto& p : found)
            if (seen.insert(canonical_or_self(p)).second) paths.push_back(p);
    } else if (!dir.empty()) {
        h.skipped.push_back(dir + ": not a directory");
    }

    // The page's lines by model, harness and batch, so that each history group looks only at its
    // own model's lines (a scan of every line per group was quadratic).
    std::map<LineKey, std::vector<const ModelLine*>> lines_of;
    for (const auto& l : data.lines) lines_of[LineKey{l.model, l.harness, l.batch}].push_back(&l);

    const gates::ModelCatalog no_aliases;
    for (const auto& path : paths) {
        auto file = read_results_csv(path);
        if (!file) {
            h.skipped.push_back(file.error().message);
            continue;
        }
        h.files_read.push_back(path);
        gates::RowContext context;
        context.file_name = gates::parse_benchmark_file_name(path);
        const auto base = fs::path(path).filename().string();
        for (const auto& g : gates::group_rows(file->rows, context, no_aliases)) {
            if (std::find(data.hosts.begin(), data.hosts.end(), g.host) == data.hosts.end()) continue;
            const auto samples = g.samples("decode_tok_s");
            if (samples.empty()) continue;
            const ModelLine* line = nullptr;
            if (auto found = lines_of.find(LineKey{g.model, g.harness, g.batch}); found != lines_of.end())
                for (const auto* l : found->second)
                    if (same_prompt_length(l->prompt_len, prompt_length(g))) line = l;  // the last match, as the page orders them
            if (line == nullptr) continue;
            // Each run is a point of its own, grouped as the gate groups its history (core/row_runs.hpp).
            for (const auto& run : group_into_runs(g.ok_rows)) {
                gates::SampleGroup rows_of_run = g;
                rows_of_run.rows = rows_of_run.ok_rows = run.rows;
                const auto run_samples = rows_of_run.samples("decode_tok_s");
                if (run_samples.empty()) continue;
                auto date = rows_of_run.date();
                if (date.empty() && context.file_name) date = context.file_name->date;
                h.points.push_back({static_cast<std::size_t>(line - data.lines.data()), g.model, g.runtime, date, run.run,
                                    rows_of_run.first().timestamp, rows_of_run.first().flags,
                                    rows_of_run.first().machine_id, gates::median(run_samples), base});
            }
        }
    }
    std::sort(h.points.begin(), h.points.end(), [](const HistoryPoint& a, const HistoryPoint& b) {
        return std::tie(a.line, a.model, a.runtime, a.date, a.timestamp, a.source, a.run) <
               std::tie(b.line, b.model, b.runtime, b.date, b.timestamp, b.source, b.run);
    });
    return h;
}

}  // namespace perfgate::report
