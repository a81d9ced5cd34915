#pragma once
// Reading files as they are at a git ref, for pull-request safety (--baseline-ref). git runs through
// core's process runner (core/process.hpp) with an argument vector, never through a shell.
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::gates {

struct GitBlob {
    std::string path;  // relative to the repository root
    std::string object_id;
    bool symlink = false;  // mode 120000: the blob is a link's target path, not a file's bytes
};

// Runs git with `args` in `work_dir`; returns stdout, or an Error with git's stderr.
Expected<std::string> run_git(const std::string& work_dir, const std::vector<std::string>& args);

// Absolute path of the repository holding `dir`.
Expected<std::string> git_toplevel(const std::string& dir);
// The commit `rev` names (its full object id); an Error when it names none.
Expected<std::string> git_commit_of(const std::string& repo_root, const std::string& rev);
// The type of the entry at `repo_relative_path` in `ref`'s own tree: "tree", "blob", "link"
// (a symbolic link), "commit" (a submodule), or "" when the path does not exist there.
Expected<std::string> git_entry_type(const std::string& repo_root, const std::string& ref,
                                     const std::string& repo_relative_path);
// Files under `repo_relative_dir` at `ref` (recursively).
Expected<std::vector<GitBlob>> git_list_files(const std::string& repo_root, const std::string& ref,
                                              const std::string& repo_relative_dir);
// Contents of many blobs in one `git cat-file --batch` process, in the order asked.
Expected<std::vector<std::string>> git_read_blobs(const std::string& repo_root,
                                                  const std::vector<std::string>& object_ids);

// What the working tree changed under `repo_relative_dirs` relative to `ref`: one line per file,
// "M path", "A path", "D path", "?? path" (untracked).
Expected<std::vector<std::string>> git_changes_since(const std::string& repo_root, const std::string& ref,
                                                     const std::vector<std::string>& repo_relative_dirs);

}  // namespace perfgate::gates
