#include "perfgate/core/process.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <set>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/filesystem/path.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>

#include "adopted_processes.hpp"
#include "output_capture.hpp"
#include "perfgate/core/search_path.hpp"

namespace perfgate {
namespace bp = boost::process;
namespace {

using Clock = std::chrono::steady_clock;

// The process groups being run, for the termination handlers (0: a free slot). perfgate runs one
// child at a time, and a tool inside it at most (nvidia-smi sampling device memory during a
// launch, from the launch's on_tick): a few slots are plenty, and a full table only means an
// interrupt does not reach that group itself (its end still kills it).
constexpr std::size_t kGroupSlots = 4;
std::array<std::atomic<pid_t>, kGroupSlots> g_active_groups{};

void add_active_group(pid_t group) {
    for (auto& slot : g_active_groups) {
        pid_t free = 0;
        if (slot.compare_exchange_strong(free, group)) return;
    }
}

void remove_active_group(pid_t group) {
    for (auto& slot : g_active_groups) {
        pid_t mine = group;
        if (slot.compare_exchange_strong(mine, 0)) return;
    }
}

bool any_active_group() {
    return std::any_of(g_active_groups.begin(), g_active_groups.end(), [](const auto& slot) { return slot.load() > 0; });
}

extern "C" void kill_active_group_and_reraise(int sig) {
    for (auto& slot : g_active_groups) {
        const pid_t group = slot.load();
        if (group > 0) ::kill(-group, SIGKILL);  // async-signal-safe, as are signal() and raise()
    }
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

std::string describe(const std::string& program, const ProcessRequest& request) {
    return "'" + program + "'" + (request.cwd.empty() ? "" : " in " + request.cwd);
}

// The program's path as the child will run it, or why it cannot run.
Expected<std::string> executable_for(const ProcessRequest& request) {
    auto exe = find_on_path(request.program);
    if (!exe) return make_error("cannot run '" + request.program + "': not found or not executable");
    // A relative path was checked from our folder; the child resolves it after changing to its own.
    if (!request.cwd.empty()) exe = std::filesystem::absolute(*exe).string();
    // Boost.Process ignores a failed chdir in the child, which would then run in our folder.
    if (std::error_code ec; !request.cwd.empty() && !std::filesystem::is_directory(request.cwd, ec))
        return make_error("cannot start " + describe(*exe, request) + ": no such folder");
    return *exe;
}

// A started child: its pid, which is also its process group, and the read ends of its stdout and
// stderr pipes (owned by the caller from now on).
struct Spawned {
    pid_t pid = -1;
    int out_fd = -1;
    int err_fd = -1;
    Clock::time_point start;  // its timeout and wall time count from here
};

Expected<Spawned> spawn(const std::string& exe, const ProcessRequest& request) {
    bp::environment env = boost::this_process::environment();
    for (const auto& [key, value] : request.env) env[key] = value;
    const boost::filesystem::path stdin_path(request.stdin_file.value_or("/dev/null"));
    const bool merge = request.merge_stderr;
    bp::pipe out_pipe, err_pipe;
    const auto start = Clock::now();
    std::error_code launch_error;
    bp::child child;
    try {
        child = bp::child(
            bp::exe = exe, bp::args = request.args, env, bp::start_dir = request.cwd.empty() ? "." : request.cwd,
            bp::std_in < stdin_path, bp::std_out > out_pipe, bp::std_err > err_pipe,
            // Last, so that it sees the redirections above. Own process group: a timeout kills the
            // program and every process it started.
            bp::extend::on_exec_setup =
                [merge](auto&) {
                    ::setpgid(0, 0);
                    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
                    if (merge) ::dup2(STDOUT_FILENO, STDERR_FILENO);
                },
            launch_error);
    } catch (const std::exception& e) {
        return make_error("cannot start " + describe(exe, request) + ": " + e.what());
    }
    if (launch_error || !child.valid())
        return make_error("cannot start " + describe(exe, request) + ": " + launch_error.message());
    const pid_t pid = child.id();
    // We reap the child ourselves (wait4, for its resource usage): boost must neither wait for it
    // nor terminate it when `child` goes out of scope.
    child.detach();
    ::setpgid(pid, pid);  // also from the parent, so the group exists before we might signal it
    add_active_group(pid);

    // The parent keeps only the read ends; otherwise end of file never comes.
    ::close(out_pipe.native_sink());
    out_pipe.assign_sink(-1);
    ::close(err_pipe.native_sink());
    err_pipe.assign_sink(-1);
    const Spawned spawned{pid, out_pipe.native_source(), err_pipe.native_source(), start};
    out_pipe.assign_source(-1);
    err_pipe.assign_source(-1);
    return spawned;
}

// How the child ended, as wait4 reported it.
struct Ending {
    bool timed_out = false;  // we killed its process group at the deadline
    bool reaped = false;     // wait4 returned the child's status and usage
    int status = 0;
    struct rusage usage {};
};

// At the deadline: the whole group is killed and the child reaped, however long that takes.
Ending kill_at_deadline(pid_t pid) {
    Ending ending;
    ending.timed_out = true;
    ::kill(-pid, SIGKILL);
    pid_t waited = -1;
    do waited = ::wait4(pid, &ending.status, 0, &ending.usage);
    while (waited < 0 && errno == EINTR);
    ending.reaped = waited == pid;
    return ending;
}

// Reads the child's output while it runs, ticks about once a second, and reaps it when it exits
// or, at the deadline, kills it.
Ending capture_until_exit(const Spawned& child, const std::vector<detail::CapturedStream*>& streams,
                          const ProcessRequest& request) {
    const auto deadline = child.start + request.timeout;
    auto next_tick = child.start + std::chrono::seconds(1);
    Ending ending;
    bool exited = false;  // reaped, or lost to someone else's wait (ECHILD)
    while (!exited) {
        detail::pump(streams, std::chrono::milliseconds(50), request.on_stderr_line);
        if (request.on_tick && Clock::now() >= next_tick) {
            next_tick += std::chrono::seconds(1);
            request.on_tick(std::chrono::duration<double>(Clock::now() - child.start).count());
        }
        const pid_t got = ::wait4(child.pid, &ending.status, WNOHANG, &ending.usage);
        ending.reaped = got == child.pid;
        exited = ending.reaped || (got < 0 && errno != EINTR);
        if (!exited && Clock::now() >= deadline) return kill_at_deadline(child.pid);
    }
    return ending;
}

// Leftovers of the group (a grandchild that outlived its parent) go too, and so does every
// descendant that left the group and was handed to us, with its own group.
// A run nested inside another (a tool called from the outer run's on_tick) leaves adopted children
// alone: they are the outer runtime's descendants, still running, and its own end kills them.
void end_leftovers(pid_t group, const std::set<pid_t>& children_before, bool nested) {
    ::kill(-group, SIGKILL);
    if (!nested) detail::kill_adopted_children(children_before);
    remove_active_group(group);
}

// What the ended tree still had in the pipes, for at most two seconds (a descendant we could not
// kill may hold them open).
void drain(const std::vector<detail::CapturedStream*>& streams, const std::function<void(std::string_view)>& on_line) {
    const auto drain_deadline = Clock::now() + std::chrono::seconds(2);
    while (std::any_of(streams.begin(), streams.end(), [](const auto* s) { return s->fd >= 0; }) &&
           Clock::now() < drain_deadline)
        detail::pump(streams, std::chrono::milliseconds(50), on_line);
    detail::finish(streams, on_line);
}

ProcessResult process_result(const Ending& ending, const detail::CapturedStream& out,
                             const detail::CapturedStream& err, Clock::time_point start) {
    ProcessResult result;
    result.timed_out = ending.timed_out;
    if (ending.timed_out) result.term_signal = SIGKILL;
    else if (ending.reaped && WIFEXITED(ending.status)) result.exit_code = WEXITSTATUS(ending.status);
    else if (ending.reaped && WIFSIGNALED(ending.status)) result.term_signal = WTERMSIG(ending.status);
    // Linux reports ru_maxrss in KiB.
    if (ending.reaped) result.peak_rss_bytes = static_cast<std::uint64_t>(ending.usage.ru_maxrss) * 1024u;
    result.out = out.buffer.text();
    result.err = err.buffer.text();
    result.out_truncated = out.buffer.truncated();
    result.err_truncated = err.buffer.truncated();
    result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

}  // namespace

std::string dropped_output_mark(std::size_t bytes) {
    return "\n~~ perfgate: " + std::to_string(bytes) + " bytes of output dropped here ~~\n";
}

int ProcessResult::shell_status() const {
    if (exit_code) return *exit_code;
    if (term_signal) return 128 + *term_signal;
    return -1;
}

Expected<ProcessResult> run_process(const ProcessRequest& request) {
    auto exe = executable_for(request);
    if (!exe) return exe.error();
    // Descendants that leave the group (setsid) come back to us as children once their parents
    // are gone; the children we had before are not the run's.
    detail::become_subreaper();
    const auto children_before = detail::our_children();
    const bool nested = any_active_group();
    const auto child = spawn(*exe, request);
    if (!child) return child.error();
    if (request.on_started) request.on_started(child->pid);
    detail::CapturedStream out{child->out_fd, detail::BoundedBuffer(request.capture_limit), false, {}};
    detail::CapturedStream err{child->err_fd, detail::BoundedBuffer(request.capture_limit), true, {}};
    const std::vector<detail::CapturedStream*> streams{&out, &err};
    const Ending ending = capture_until_exit(*child, streams, request);
    end_leftovers(child->pid, children_before, nested);
    drain(streams, request.on_stderr_line);
    return process_result(ending, out, err, child->start);
}

void install_termination_handlers() {
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) ::signal(sig, kill_active_group_and_reraise);
}

}  // namespace perfgate
