#pragma once
// Where a perfgate project lives, and paths written relative to it. Committed CSVs and pages must
// not name the folders of the machine that made them (its checkout, build or temporary folders):
// a reader pastes `build/ci/forged/x.gguf` from the project root, never `/tmp/ci/repo/...`.
#include <filesystem>
#include <optional>
#include <string>

namespace perfgate {

// The nearest ancestor of `start` (a file or a folder) that holds `CMakePresets.json` or `.git`:
// the project that a suite manifest, a results folder or a build folder belongs to.
std::optional<std::filesystem::path> find_project_root(const std::filesystem::path& start);

// `path` relative to `root` when it lies inside it, else unchanged.
std::string project_relative(const std::string& path, const std::filesystem::path& root);

// Every space-separated word of `command` that is an absolute path inside `root` made relative.
std::string project_relative_command(const std::string& command, const std::filesystem::path& root);

}  // namespace perfgate
