#pragma once
// Where a perfgate project lives, and paths written relative to it. Committed CSVs and pages must
// not name the folders of the machine that made them (its checkout, build or temporary folders):
// a reader pastes `build/ci/forged/x.gguf` from the project root, never `/tmp/ci/repo/...`.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace perfgate {

// `dir` or its nearest ancestor for which `has_marker` holds (walked lexically up to the root).
std::optional<std::filesystem::path> nearest_ancestor(std::filesystem::path dir,
                                                      const std::function<bool(const std::filesystem::path&)>& has_marker);

// The nearest ancestor of `start` (a file or a folder) that holds `CMakePresets.json` or `.git`:
// the project that a suite manifest, a results folder or a build folder belongs to.
std::optional<std::filesystem::path> find_project_root(const std::filesystem::path& start);

// The nearest ancestor of `start` that holds `CMakeCache.txt`: the CMake build folder a forge
// cache or a built runtime lives in (a build folder may sit outside the project: `cmake -B /tmp/x`).
std::optional<std::filesystem::path> find_build_root(const std::filesystem::path& start);

// The nearest ancestor of the folder `start` that holds a benchmarks/ or thresholds/ folder: the
// root `perfgate gate` takes its default folders from, so they do not depend on where in the
// project it is started.
std::optional<std::filesystem::path> find_gate_root(const std::filesystem::path& start);

// The placeholder a recorded path inside the build folder starts with.
inline constexpr const char* build_placeholder = "<build>";

// When a `build` folder is given and `path` lies inside it, `<build>/` + the path relative to it
// (wherever the build folder is); else `path` relative to `root` when it lies inside it; else
// unchanged.
std::string project_relative(const std::string& path, const std::filesystem::path& root,
                             const std::filesystem::path& build = {});

// `command` with every space-separated word replaced by `word(w)` (spaces kept as they are).
std::string map_command_words(const std::string& command, const std::function<std::string(const std::string&)>& word);

// Every space-separated word of `command` that is an absolute path made relative as above.
std::string project_relative_command(const std::string& command, const std::filesystem::path& root,
                                     const std::filesystem::path& build = {});

}  // namespace perfgate
