#include "perfgate/perf/launcher.hpp"

#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <csignal>
#include <atomic>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace perfgate::perf {
namespace bp = boost::process;
namespace {

using Clock = std::chrono::steady_clock;

// The process group being measured, for the termination handlers (0: none).
std::atomic<pid_t> g_active_group{0};

extern "C" void kill_active_group_and_reraise(int sig) {
    const pid_t group = g_active_group.load();
    if (group > 0) ::kill(-group, SIGKILL);  // async-signal-safe, as are signal() and raise()
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

// Keeps the first and the last half of a stream when it exceeds the bound: the head holds the
// runtime's banner, the tail its results and error messages.
class BoundedBuffer {
public:
    explicit BoundedBuffer(std::size_t limit) : limit_(limit) {}
    void append(std::string_view data) {
        if (head_.size() < limit_ / 2) {
            const std::size_t take = std::min(data.size(), limit_ / 2 - head_.size());
            head_.append(data.substr(0, take));
            data.remove_prefix(take);
        }
        if (data.empty()) return;
        tail_.append(data);
        if (tail_.size() > limit_ - limit_ / 2) {
            dropped_ += tail_.size() - (limit_ - limit_ / 2);
            tail_.erase(0, tail_.size() - (limit_ - limit_ / 2));
        }
    }
    bool truncated() const { return dropped_ > 0; }
    std::string text() const {
        if (dropped_ == 0) return head_ + tail_;
        return head_ + dropped_output_mark(dropped_) + tail_;
    }

private:
    std::size_t limit_;
    std::string head_, tail_;
    std::size_t dropped_ = 0;
};

struct Stream {
    int fd = -1;
    BoundedBuffer buffer;
    std::string partial_line;  // for the line callback
    bool is_stderr = false;
};

// Reads what is available on the open streams, waiting at most `wait`.
void pump(std::vector<Stream*>& streams, std::chrono::milliseconds wait,
          const std::function<void(std::string_view)>& on_line) {
    std::vector<pollfd> fds;
    for (auto* s : streams)
        if (s->fd >= 0) fds.push_back({s->fd, POLLIN, 0});
    if (fds.empty()) {
        ::usleep(static_cast<useconds_t>(wait.count() * 1000));
        return;
    }
    const int rc = ::poll(fds.data(), fds.size(), static_cast<int>(wait.count()));
    if (rc <= 0) return;
    char chunk[65536];
    for (auto* s : streams) {
        if (s->fd < 0) continue;
        for (const auto& p : fds) {
            if (p.fd != s->fd || p.revents == 0) continue;
            const ssize_t n = ::read(s->fd, chunk, sizeof chunk);
            if (n <= 0) {
                if (n < 0 && errno == EINTR) continue;
                ::close(s->fd);
                s->fd = -1;
                continue;
            }
            const std::string_view data(chunk, static_cast<std::size_t>(n));
            s->buffer.append(data);
            if (s->is_stderr && on_line) {
                s->partial_line.append(data);
                std::size_t nl;
                while ((nl = s->partial_line.find('\n')) != std::string::npos) {
                    on_line(std::string_view(s->partial_line).substr(0, nl));
                    s->partial_line.erase(0, nl + 1);
                }
                if (s->partial_line.size() > 4096) s->partial_line.clear();
            }
        }
    }
}

}  // namespace

std::string dropped_output_mark(std::size_t bytes) {
    return "\n~~ perfgate: " + std::to_string(bytes) + " bytes of output dropped here ~~\n";
}

int LaunchResult::shell_status() const {
    if (exit_code) return *exit_code;
    if (term_signal) return 128 + *term_signal;
    return -1;
}

LaunchResult launch(const LaunchRequest& request) {
    LaunchResult result;
    boost::filesystem::path exe = request.program;
    if (request.program.find('/') == std::string::npos) exe = bp::search_path(request.program);
    if (exe.empty() || ::access(exe.c_str(), X_OK) != 0) {
        result.start_error = "cannot run '" + request.program + "': not found or not executable";
        return result;
    }

    bp::environment env = boost::this_process::environment();
    for (const auto& [key, value] : request.env) env[key] = value;

    bp::pipe out_pipe, err_pipe;
    const auto start = Clock::now();
    std::error_code launch_error;
    bp::child child;
    try {
        child = bp::child(
            exe, bp::args(request.args), env, bp::std_out > out_pipe, bp::std_err > err_pipe,
            bp::std_in < bp::null,
            // Own process group: a timeout kills the runtime and every process it started.
            bp::extend::on_exec_setup =
                [](auto&) {
                    ::setpgid(0, 0);
                    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
                },
            launch_error);
    } catch (const std::exception& e) {
        result.start_error = "cannot start '" + exe.string() + "': " + e.what();
        return result;
    }
    if (launch_error || !child.valid()) {
        result.start_error = "cannot start '" + exe.string() + "': " + launch_error.message();
        return result;
    }
    result.started = true;
    const pid_t pid = child.id();
    ::setpgid(pid, pid);  // also from the parent, so the group exists before we might signal it
    g_active_group.store(pid);

    // The parent keeps only the read ends; otherwise EOF never comes.
    ::close(out_pipe.native_sink());
    out_pipe.assign_sink(-1);
    ::close(err_pipe.native_sink());
    err_pipe.assign_sink(-1);

    Stream out{out_pipe.native_source(), BoundedBuffer(request.capture_limit), {}, false};
    Stream err{err_pipe.native_source(), BoundedBuffer(request.capture_limit), {}, true};
    out_pipe.assign_source(-1);
    err_pipe.assign_source(-1);
    std::vector<Stream*> streams{&out, &err};

    const auto deadline = start + request.timeout;
    auto next_tick = start + std::chrono::seconds(1);
    bool exited = false;
    while (!exited) {
        pump(streams, std::chrono::milliseconds(50), request.on_stderr_line);
        if (request.on_tick && Clock::now() >= next_tick) {
            next_tick += std::chrono::seconds(1);
            request.on_tick(std::chrono::duration<double>(Clock::now() - start).count());
        }
        std::error_code ec;
        exited = !child.running(ec);
        if (!exited && Clock::now() >= deadline) {
            result.timed_out = true;
            ::kill(-pid, SIGKILL);
            child.wait(ec);
            exited = true;
        }
    }
    // Leftovers of the group (a grandchild that outlived its parent) go too.
    ::kill(-pid, SIGKILL);
    g_active_group.store(0);
    const auto drain_deadline = Clock::now() + std::chrono::seconds(2);
    while ((out.fd >= 0 || err.fd >= 0) && Clock::now() < drain_deadline)
        pump(streams, std::chrono::milliseconds(50), request.on_stderr_line);
    for (auto* s : streams)
        if (s->fd >= 0) ::close(s->fd);
    if (!err.partial_line.empty() && request.on_stderr_line) request.on_stderr_line(err.partial_line);

    const int status = child.native_exit_code();
    if (!result.timed_out) {
        if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
        else if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
    } else {
        result.term_signal = SIGKILL;
    }
    result.out = out.buffer.text();
    result.err = err.buffer.text();
    result.truncated = out.buffer.truncated() || err.buffer.truncated();
    result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

void install_termination_handlers() {
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) ::signal(sig, kill_active_group_and_reraise);
}

}  // namespace perfgate::perf
