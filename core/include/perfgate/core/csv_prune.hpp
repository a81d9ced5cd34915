#pragma once
// Taking one bad run out of a results CSV (perfgate prune): every record whose run_id matches is
// removed, every other byte stays as it was.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate {

// The text without the records of `run_id` (header, other records, line endings and quoting kept
// byte for byte), and how many records were dropped. An error names the file and line when the
// text has no run_id column or a record is malformed.
struct PrunedText {
    std::string text;
    std::size_t removed = 0;
};
Expected<PrunedText> prune_run_from_text(std::string_view text, const std::string& run_id, const std::string& name);

// Rewrites `path` without the records of `run_id`, atomically: under the same exclusive flock that
// append_results_locked takes, the new text goes to a temporary file in the same folder, is
// fsynced and renamed over the original (and the folder fsynced), so a reader sees the old file or
// the new one, never a mix. A file without such records is left untouched. Returns the count.
Expected<std::size_t> prune_run_locked(const std::string& path, const std::string& run_id);

// Every *.csv directly in `folder` that holds records of `run_id` (files of another schema, such
// as mlxcel's, cannot hold a run and are passed over). Returns each pruned file and its count.
struct PrunedFile {
    std::string path;
    std::size_t removed = 0;
};
Expected<std::vector<PrunedFile>> prune_run_in_folder(const std::string& folder, const std::string& run_id);

// perfgate prune: `run_id` out of each of `files` (each listed, with 0 when it held none) and, when
// `folder` is not empty, out of the folder as above. Stops at the first error.
Expected<std::vector<PrunedFile>> prune_run(const std::vector<std::string>& files, const std::string& folder,
                                            const std::string& run_id);

}  // namespace perfgate
