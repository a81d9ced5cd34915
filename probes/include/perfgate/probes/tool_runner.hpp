#pragma once
// Launches an external tool (argument vector, never a shell) with a time cap.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::probes {

struct ToolCall {
    std::string program;  // a bare name is looked up on the search path; a path is used as is
    std::vector<std::string> args;
    std::map<std::string, std::string> extra_env;  // added to the inherited environment
    bool merge_stderr = false;                     // runtimes print their device lines on stderr
    std::chrono::milliseconds timeout{2000};
};

struct ToolOutput {
    std::string text;  // stdout (and stderr when merged), ANSI codes removed
    int exit_code = 0;
};

// The directories to search: `path_list` in PATH syntax ("a:b:c").
std::vector<std::string> split_search_path(const std::string& path_list);
// Full path of `name` in `dirs` (first executable match), or nullopt.
std::optional<std::string> find_on_path(const std::string& name, const std::vector<std::string>& dirs);

// Errors (as values): not found, could not start, ran past the timeout (the whole process group
// is killed). A non-zero exit is not an error here: the output and the code are returned.
Expected<ToolOutput> run_tool(const ToolCall& call, const std::vector<std::string>& search_dirs);

}  // namespace perfgate::probes
