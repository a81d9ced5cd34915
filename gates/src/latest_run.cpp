#include "latest_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace perfgate::gates::detail {

std::string keep_latest_run(std::vector<ResultRow>& rows, const std::string& file) {
    struct Seen {
        std::string latest_timestamp;
        std::size_t last_row = 0;
    };
    std::map<std::string, Seen> runs;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto& seen = runs[rows[i].run_id];
        seen.latest_timestamp = std::max(seen.latest_timestamp, rows[i].timestamp);  // ISO 8601 sorts as text
        seen.last_row = i;
    }
    if (runs.empty() || (runs.size() == 1 && runs.begin()->first.empty())) return {};
    auto latest = std::max_element(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
        return std::tie(a.second.latest_timestamp, a.second.last_row) < std::tie(b.second.latest_timestamp, b.second.last_row);
    });
    const std::string id = latest->first, when = latest->second.latest_timestamp;
    if (runs.size() == 1) return fmt::format("judged run {} of {}", id.empty() ? "(no run id)" : id, file);
    std::erase_if(rows, [&](const ResultRow& r) { return r.run_id != id; });
    return fmt::format("judged run {}{} of {}: the latest of its {} runs; the earlier runs are not pooled with it",
                       id.empty() ? "(no run id)" : id, when.empty() ? "" : " (" + when + ")", file, runs.size());
}

}  // namespace perfgate::gates::detail
