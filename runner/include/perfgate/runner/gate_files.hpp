#pragma once
// perfgate gate as a library: the command's folders, baseline ref and suite turned into the gate's
// options, and the result files judged. Bad input is an Error (exit 2) that says what is wrong.
#include <filesystem>
#include <optional>
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/report.hpp"

namespace perfgate::runner {

struct GateFilesRequest {
    gates::GateOptions options;                  // results and the rule's settings as given
    std::string baseline, catalog;               // empty: not given
    std::string benchmarks_dir, thresholds_dir;  // empty: benchmarks/ and thresholds/ of the gate root
    std::optional<std::string> baseline_ref;     // given: must not be blank
    std::string suite;                           // needs baseline_ref: the suite as it is at the ref
    std::string test = "welch-t";
    bool allow_empty = false;
    std::filesystem::path start_dir;  // where the gate root is looked for (the working directory)
};

struct GateFolders {
    std::string benchmarks_dir, thresholds_dir;
};

// A folder given must exist (a typo would otherwise make every pair "new"); a default one is
// <gate root>/benchmarks or /thresholds (core's find_gate_root from `start_dir`) and may be missing
// (no thresholds/: the built-in defaults; no benchmarks/: a first run). No gate root: an Error.
Expected<GateFolders> resolve_gate_folders(const std::string& benchmarks_dir, const std::string& thresholds_dir,
                                           const std::filesystem::path& start_dir);

Expected<gates::GateReport> gate_files(const GateFilesRequest& request);

}  // namespace perfgate::runner
