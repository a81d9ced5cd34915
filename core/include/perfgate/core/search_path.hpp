#pragma once
// Finding a program the way a shell would, but in one place: every launch in perfgate (the runtime,
// the vendor tools, git, gnuplot) resolves a bare name through these functions.
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

// The directories of `path_list` in PATH syntax ("a:b:c"); empty entries are skipped rather than
// read as the working directory, so a stray ':' cannot make perfgate run a file from the cwd.
std::vector<std::string> split_search_path(const std::string& path_list);

// The directories of `path_list` when given, else those of the environment's $PATH.
std::vector<std::string> search_path_dirs(const std::optional<std::string>& path_list);

// Full path of `name` (the first executable regular file in `dirs`), or nullopt. A name holding a
// '/' is not searched: it is returned when it is executable.
std::optional<std::string> find_on_path(const std::string& name, const std::vector<std::string>& dirs);
// The same on $PATH.
std::optional<std::string> find_on_path(const std::string& name);

}  // namespace perfgate
