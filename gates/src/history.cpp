#include "history.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>

#include "perfgate/core/csv.hpp"

namespace perfgate::gates {

void BenchmarkHistory::finish(const std::unordered_set<std::string>& exclude_identities) {
    // Never the results file itself.
    files_.erase(std::remove_if(files_.begin(), files_.end(),
                                [&](const auto& f) { return exclude_identities.count(f->identity) > 0; }),
                 files_.end());
    // Newest first; on the same date the name decides, so the order is reproducible.
    std::sort(files_.begin(), files_.end(), [](const auto& a, const auto& b) {
        if (a->name.date != b->name.date) return a->name.date > b->name.date;
        return a->display_path > b->display_path;
    });
}

std::vector<HistoryFile*> BenchmarkHistory::candidates(const std::string& series, const std::string& host,
                                                       const std::string& date) const {
    std::vector<HistoryFile*> out;
    for (const auto& f : files_) {
        if (f->name.series != series || f->name.host != host) continue;
        if (!date.empty() && f->name.date > date) continue;
        out.push_back(f.get());
    }
    return out;
}

Expected<bool> BenchmarkHistory::mentions_any(HistoryFile& file, const std::vector<std::string>& spellings) {
    if (file.parsed)
        return std::any_of(spellings.begin(), spellings.end(), [&](const std::string& s) { return file.models.count(s) > 0; });
    if (!file.text) {
        auto text = file.read();
        if (!text) return text.error();
        file.text = std::move(*text);
    }
    std::string_view text = *file.text;
    // Boyer-Moore-Horspool skips ahead by the needle's length; string_view::find stops at every
    // occurrence of the first letter and made a history of 1,000 files ten times slower.
    return std::any_of(spellings.begin(), spellings.end(), [&](const std::string& s) {
        if (s.empty()) return false;
        std::boyer_moore_horspool_searcher searcher(s.begin(), s.end());
        return std::search(text.begin(), text.end(), searcher) != text.end();
    });
}

Status BenchmarkHistory::load(HistoryFile& file, const ModelCatalog& catalog) {
    if (file.parsed) return Ok{};
    if (!file.text) {
        auto text = file.read();
        if (!text) return text.error();
        file.text = std::move(*text);
    }
    auto parsed = parse_results_csv(*file.text, file.display_path);
    if (!parsed) return parsed.error();
    if (!file.exclude_run_id.empty())
        std::erase_if(parsed->rows, [&](const ResultRow& r) { return r.run_id == file.exclude_run_id; });
    // A contended row was measured (or not) while other work loaded the machine: never a baseline,
    // so an earlier clean reading of the pair is found instead of this one.
    std::erase_if(parsed->rows, [](const ResultRow& r) { return r.status.is_contended(); });
    file.parsed = std::make_unique<ResultFile>(std::move(*parsed));
    file.text.reset();  // the rows hold what is needed now
    file.groups = group_rows(file.parsed->rows, RowContext{file.name, {}}, catalog);
    for (std::size_t i = 0; i < file.groups.size(); ++i) file.by_model_key[file.groups[i].model_key()].push_back(i);
    for (const auto& row : file.parsed->rows) file.models.insert(row.model);
    return Ok{};
}

const SampleGroup* match_in_file(const HistoryFile& file, const SampleGroup& current, bool cross_runtime) {
    auto it = file.by_model_key.find(current.model_key());
    if (it == file.by_model_key.end()) return nullptr;
    const SampleGroup* best = nullptr;
    long best_distance = 0;
    const auto current_len = current.prompt_target_len ? current.prompt_target_len : current.prompt_tokens();
    for (auto index : it->second) {
        const auto& g = file.groups[index];
        if (!cross_runtime && g.runtime != current.runtime) continue;
        if (current.prompt_target_len && g.prompt_target_len == current.prompt_target_len) return &g;
        // Otherwise the nearest prompt length wins; lengths that do not fit the tolerance are
        // reported later as "not comparable" rather than skipped here.
        const auto len = g.prompt_target_len ? g.prompt_target_len : g.prompt_tokens();
        long distance = (len && current_len) ? std::labs(static_cast<long>(*len - *current_len)) : 0;
        if (!best || distance < best_distance) {
            best = &g;
            best_distance = distance;
        }
    }
    return best;
}

}  // namespace perfgate::gates
