#pragma once
// The run levels of every pair in a folder of result CSVs, for the commands that look at a whole
// history at once: `calibrate --from-history` (one host tag, all of its rows one history) and
// `history` (change points, one history per machine). One reader, so both see the same runs.
#include <map>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/file_name.hpp"
#include "perfgate/gates/noise_model.hpp"

namespace perfgate::gates::detail {

// Rows without a machine_id (files from before machine identity, mlxcel's) are one machine.
inline constexpr const char* unknown_machine = "unknown";

struct PairHistory {
    std::string host;
    std::string machine;  // machine_id, `unknown_machine` for rows without one; empty when not split
    std::string model;    // canonical (catalog aliases resolved)
    std::string runtime;
    std::string flags;    // the runtime flags of its runs (keep_earlier_methods: one history per flags)
    std::map<std::string, std::vector<RunLevel>> by_metric;  // registered metric -> runs, oldest first
    std::map<std::string, std::string> commit_of_run;        // RunLevel::run -> runtime_commit of its rows
};

struct PairHistoryQuery {
    std::string host;         // only files and rows of this host tag; empty: every host tag
    bool by_machine = false;  // one history per machine_id instead of one per host tag
    // Runs under earlier runtime flags kept as histories of their own (a page draws every run)
    // instead of dropped when the flags change (the gate's and calibrate's rule).
    bool keep_earlier_methods = false;
};

struct NamedFile {
    BenchmarkFileName name;
    std::string path;
};
// The folder's result files of `host` (every host when empty), oldest first (date, then path).
// Errors name the folder.
Expected<std::vector<NamedFile>> list_files(const std::string& dir, const std::string& host);

// Every result CSV in `benchmarks_dir` whose name follows the convention (file_name.hpp), oldest
// file first; rows that are not ok or belong to an A/B arm are left out. A pair is model, harness,
// batch, runtime and prompt target length (SampleGroup::key) on one host (and machine). When a
// pair's runtime flags change, its history restarts: other flags are another method. Errors name
// the folder, or the file and line.
Expected<std::vector<PairHistory>> read_pair_histories(const std::string& benchmarks_dir, const PairHistoryQuery& query);

}  // namespace perfgate::gates::detail
