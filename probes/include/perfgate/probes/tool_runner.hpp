#pragma once
// Runs an external tool of the probe (rocminfo, nvidia-smi, sysctl, a runtime's device listing)
// with a time cap, through core's process runner. What this adds: the tool is looked up on the
// probe's own search path (a recording's bin/ in tests), and a tool that outruns its cap is an error.
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/search_path.hpp"

namespace perfgate::probes {

using perfgate::find_on_path;
using perfgate::split_search_path;

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

// Errors (as values): not found, could not start, ran past the timeout (the whole process group
// is killed). A non-zero exit is not an error here: the output and the code are returned.
Expected<ToolOutput> run_tool(const ToolCall& call, const std::vector<std::string>& search_dirs);

}  // namespace perfgate::probes
