#pragma once
// The benchmark history (earlier result CSVs) and baseline selection over it. Files come from a
// directory or from a git tree at a ref; they are parsed lazily, and only when they mention a model
// that still needs a baseline, so a large history costs little more than reading its bytes.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"
#include "perfgate/gates/catalog.hpp"
#include "perfgate/gates/file_name.hpp"
#include "perfgate/gates/samples.hpp"

namespace perfgate::gates {

struct HistoryFile {
    std::string display_path;                   // "benchmarks/x.csv" or "REF:benchmarks/x.csv"
    std::string identity;                       // canonical path, to recognise the results themselves
    BenchmarkFileName name;
    std::function<Expected<std::string>()> read;  // the file's bytes
    // Filled on first use:
    std::optional<std::string> text;
    std::unique_ptr<ResultFile> parsed;
    std::vector<SampleGroup> groups;
    std::unordered_map<std::string, std::vector<std::size_t>> by_model_key;
    std::unordered_set<std::string> models;  // model names as written
    std::string exclude_run_id;              // rows of this run are dropped on load (GateOptions)
};

class BenchmarkHistory {
public:
    void add(HistoryFile file) { files_.push_back(std::make_unique<HistoryFile>(std::move(file))); }
    // Sorts newest first (date, then name) and drops files named like one of `exclude` (the results).
    void finish(const std::unordered_set<std::string>& exclude_identities);
    std::size_t size() const { return files_.size(); }

    // Candidate baseline files of a pair: same series and host, dated on or before `date` (empty:
    // any date), newest first.
    std::vector<HistoryFile*> candidates(const std::string& series, const std::string& host,
                                         const std::string& date) const;

    // Loads and groups a file (once). Errors name the file and line.
    static Status load(HistoryFile& file, const ModelCatalog& catalog);
    // Cheap pre-check: does the file's text mention any of these spellings?
    static Expected<bool> mentions_any(HistoryFile& file, const std::vector<std::string>& spellings);

private:
    std::vector<std::unique_ptr<HistoryFile>> files_;
};

// The group in `file` that pairs with `current`: same model key (and runtime unless
// `cross_runtime`), the same prompt target length when both have one, else the nearest prompt.
const SampleGroup* match_in_file(const HistoryFile& file, const SampleGroup& current, bool cross_runtime);

}  // namespace perfgate::gates
