#pragma once
// Where the benchmark history and the thresholds come from: the working tree, or a git ref
// (--baseline-ref), in which case working-tree edits of either are reported, not used.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/gate.hpp"
#include "history.hpp"

namespace perfgate::gates::detail {

struct RefChanges {
    std::vector<std::string> warnings;  // edits that the gate ignored (it read the ref)
    std::vector<std::string> failures;  // baselines at the ref that the working tree lost
};

class Sources {
public:
    static Expected<Sources> open(const GateOptions& options);

    // Text of thresholds/<file_name>; nullopt when the file does not exist (at the ref).
    Expected<std::optional<std::string>> threshold_text(const std::string& file_name) const;
    std::string threshold_display(const std::string& file_name) const;

    // Adds every benchmark CSV whose (series, host) is wanted ("series\x1fhost"); empty = all.
    // `result_names` are the basenames of the results files (their paths get resolved, to exclude them).
    Status add_history(BenchmarkHistory& history, const std::set<std::string>& wanted,
                       const std::set<std::string>& result_names) const;

    // The explicit --baseline file (read at the ref when it is tracked there).
    Expected<HistoryFile> baseline_file(const std::string& path) const;

    // Working-tree edits of thresholds/ and of existing baselines since the ref; `results`
    // identities are not reported as added baselines. A baseline removed since the ref fails.
    Expected<RefChanges> pull_request_warnings(const std::set<std::string>& results) const;

    std::vector<std::string> notes;

private:
    GateOptions options_;
    bool from_git_ = false;
    std::string repo_root_;
    std::string bench_rel_, thresholds_rel_;
    std::string local_dir_;  // GateOptions::local_history_dir when it is read (a folder, not the history's own)
    std::map<std::string, std::string> blob_of_;  // repo-relative path -> object id at the ref
};

// Canonical absolute path of a file (weakly canonical when it does not exist).
std::string identity_of(const std::string& path);

}  // namespace perfgate::gates::detail
