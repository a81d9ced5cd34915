#pragma once
// Starts one runtime process and waits for it, with a hard time limit, through core's process
// runner (argument vector, own process group, bounded capture: core/process.hpp). What this adds is
// the measurement's view of a launch: a runtime that cannot be started is a failed pair with a
// reason, not an error value, so the result says whether it started.
#include <string>

#include "perfgate/core/process.hpp"

namespace perfgate::perf {

using LaunchRequest = ProcessRequest;
using perfgate::dropped_output_mark;

struct LaunchResult : ProcessResult {
    bool started = false;
    std::string start_error;  // why it could not start (set when !started)
    bool truncated = false;   // some output of either stream was dropped to stay within the bound

    // stdout then stderr, the text the output rules look at.
    std::string merged() const { return out + (out.empty() || out.back() == '\n' ? "" : "\n") + err; }
};

// Runs the request to completion; never throws for runtime failures (they are in the result).
LaunchResult launch(const LaunchRequest& request);

}  // namespace perfgate::perf
