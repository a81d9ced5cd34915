#include "perfgate/core/row_runs.hpp"

#include <unordered_map>

namespace perfgate {

std::string run_key(const ResultRow& row) {
    return row.run_id.empty() ? row.source_file + ":" + std::to_string(row.source_line) : row.run_id;
}

std::vector<RowRun> group_into_runs(const std::vector<const ResultRow*>& rows) {
    std::vector<RowRun> runs;
    std::unordered_map<std::string, std::size_t> index_of;  // run -> its place in `runs`
    for (const ResultRow* row : rows) {
        auto key = run_key(*row);
        auto [it, fresh] = index_of.try_emplace(key, runs.size());
        if (fresh) runs.push_back(RowRun{std::move(key), {}});
        runs[it->second].rows.push_back(row);
    }
    return runs;
}

}  // namespace perfgate
