#include "perfgate/core/csv_merge.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "perfgate/core/csv.hpp"

namespace perfgate {

Expected<MergeReport> merge_results_into(const std::string& folder, const std::vector<std::string>& files) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return make_error(fmt::format("{}: no such folder", folder));
    MergeReport report;
    for (const auto& source : files) {
        auto file = read_results_csv(source);
        if (!file) return file.error();
        if (file->generation != CsvGeneration::Perfgate)
            return make_error(fmt::format("{}:1: not perfgate's schema: only perfgate's own CSVs record runs (run_id) "
                                          "that can be merged", source));
        report.warnings.insert(report.warnings.end(), file->warnings.begin(), file->warnings.end());
        // Recorded output replayed by a stub is no measurement: it never becomes a baseline.
        const auto replayed = std::erase_if(file->rows, [](const ResultRow& r) { return r.contention == kReplayedContention; });
        if (replayed > 0)
            report.warnings.push_back(fmt::format("{}: {} replayed row{} (contention {}) not merged: recorded output is "
                                                  "no baseline", source, replayed, replayed == 1 ? "" : "s",
                                                  kReplayedContention));
        if (file->rows.empty()) {
            report.files.push_back({source, "", 0, replayed});
            continue;
        }
        const std::string into = (fs::path(folder) / fs::path(source).filename()).string();
        auto added = append_new_runs_locked(into, file->rows);
        if (!added) return added.error();
        report.files.push_back({source, into, *added, file->rows.size() - *added + replayed});
    }
    return report;
}

}  // namespace perfgate
