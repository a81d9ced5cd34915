#pragma once
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <functional>
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/test/files.hpp"  // fresh_dir, temp_dir, read_file, mlxcel_csv

namespace perfgate::test {
struct LimitedWrite {
    bool refused = false;  // the child's call returned an error, as intended
    std::string message;   // that error, or what went wrong
};

// Runs `write` in a child process whose files may grow to `max_file_bytes` only (RLIMIT_FSIZE,
// SIGXFSZ ignored): a write beyond it fails with EFBIG, as one on a full disk fails with ENOSPC.
inline LimitedWrite with_file_size_limit(rlim_t max_file_bytes, const std::function<Status()>& write) {
    int fds[2];
    if (::pipe(fds) != 0) return {false, "pipe failed"};
    const pid_t pid = ::fork();
    if (pid < 0) return {false, "fork failed"};
    if (pid == 0) {
        ::close(fds[0]);
        ::signal(SIGXFSZ, SIG_IGN);
        rlimit lim{max_file_bytes, max_file_bytes};
        ::setrlimit(RLIMIT_FSIZE, &lim);
        const auto r = write();
        const std::string msg = r ? std::string("the write succeeded") : r.error().message;
        (void)!::write(fds[1], msg.data(), msg.size());
        ::_exit(r ? 1 : 0);
    }
    ::close(fds[1]);
    std::string msg;
    char buf[512];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) msg.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return {WIFEXITED(status) && WEXITSTATUS(status) == 0, msg};
}

}  // namespace perfgate::test
