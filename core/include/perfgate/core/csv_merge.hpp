#pragma once
// Adding the runs of result files to a folder of result files (perfgate merge; the CI job that
// proposes the next baseline): rows are merged into the folder's file of the same name, never
// a file replaced, so a baseline file of the same day keeps every row it had.
#include <cstddef>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate {

struct MergedFile {
    std::string source;  // the file the rows came from
    std::string into;    // <folder>/<the source's file name>
    std::size_t added = 0;
    std::size_t skipped = 0;  // rows of runs (run_id) the file held already, and replayed rows
};

// The contention column of a row a replay stub printed (perf/ writes it): recorded output, never
// merged into a baseline folder.
inline constexpr const char* kReplayedContention = "off:replay";

// For each of `files`, in order: its rows whose run_id `<folder>/<its name>` does not hold yet are
// appended to that file (created when missing) under the appenders' lock, in one write
// (append_new_runs_locked). A run merged twice is therefore added once. Refused, naming the file:
// a source that is not perfgate's schema (mlxcel files have no run_id), a destination whose
// header cannot take the rows (another schema; A/B rows into a file without the arm column), a
// missing folder. Replayed rows (kReplayedContention) are left out, said in `warnings`; a source of
// replayed rows only adds nothing and names no destination. Sources are read as every result file is (regular, bounded); their warnings
// (a torn last row) are returned in `warnings`. Stops at the first error.
struct MergeReport {
    std::vector<MergedFile> files;
    std::vector<std::string> warnings;
};
Expected<MergeReport> merge_results_into(const std::string& folder, const std::vector<std::string>& files);

}  // namespace perfgate
