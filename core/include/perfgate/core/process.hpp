#pragma once
// The one way perfgate starts another program (the runtime being measured, the vendor tools of the
// probe, git, gnuplot): an argument vector, never a shell; the inherited environment plus the
// request's additions; the child in a process group of its own, so a timeout or an interrupt kills
// everything it started; output captured up to a bound.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate {

struct ProcessRequest {
    std::string program;                       // a path, or a bare name looked up on $PATH
    std::vector<std::string> args;
    std::map<std::string, std::string> env;    // set on top of the inherited environment
    std::string cwd;                           // the child's working directory; empty: ours
    std::optional<std::string> stdin_file;     // read as the child's stdin; none: /dev/null
    bool merge_stderr = false;                 // stderr into the stdout capture (err stays empty)
    std::chrono::milliseconds timeout{300'000};
    std::size_t capture_limit = 4 * 1024 * 1024;  // bytes kept per stream (head and tail halves)
    // Called for every complete stderr line as it arrives (progress pass-through).
    std::function<void(std::string_view line)> on_stderr_line;
    // Called about once a second while the process runs, with the seconds since it started: lets
    // the caller show that a long run that prints nothing is still alive.
    std::function<void(double elapsed_s)> on_tick;
    // Called once, right after the child started, with its pid, which is also the id of the
    // process group it and its descendants run in: lets the caller watch what the run holds
    // (the pair runner samples its device memory on the ticks).
    std::function<void(std::int64_t process_group)> on_started;
};

struct ProcessResult {
    bool timed_out = false;          // we killed its process group at the deadline
    std::optional<int> exit_code;    // set when it exited normally
    std::optional<int> term_signal;  // set when a signal ended it (SIGKILL after a timeout)
    std::string out;                 // captured stdout (bounded)
    std::string err;                 // captured stderr (bounded)
    bool out_truncated = false;      // some stdout was dropped to stay within the bound
    bool err_truncated = false;
    double wall_seconds = 0.0;
    // The peak resident set size (wait4's ru_maxrss, in bytes) of the largest single process of
    // the tree that was waited for: the child itself, or a descendant the child waited for. It is
    // not the sum over the tree (two processes of 1 GiB each give 1 GiB), it misses descendants
    // nobody waited for (killed leftovers of the group, adopted ones), and it is host memory, not
    // device memory. Unset when the child's status could not be collected.
    std::optional<std::uint64_t> peak_rss_bytes;

    // The shell's view of the status: exit code, or 128 + signal.
    int shell_status() const;
};

// The line that stands for the middle of a stream cut out of the capture. It holds no character
// that opens JSON, XML or CSV data ('[', '{', '<', ',', '"'), so an output adapter looking for the
// runtime's result never takes it for the start of that result (hardening issue, item 10).
std::string dropped_output_mark(std::size_t bytes);

// Runs the request to completion. An Error (naming the program) when it cannot be found or
// started; everything that happens once it runs (non-zero exit, signal, timeout) is in the result.
// When the direct child exits, whatever is left of its process group is killed, so a child that
// outlives its parent cannot keep the pipes open or linger as an orphan.
Expected<ProcessResult> run_process(const ProcessRequest& request);

// Makes SIGTERM, SIGINT and SIGHUP (ctest's timeout, Ctrl-C, a closed terminal) kill the process
// group of the program being run before perfgate itself ends. Each child also gets
// PR_SET_PDEATHSIG, so even a SIGKILLed perfgate takes its direct child with it.
void install_termination_handlers();

}  // namespace perfgate
