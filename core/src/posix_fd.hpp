#pragma once
// The file-descriptor helpers of core's file access (the locked CSV writers, the bounded reader):
// one owner that closes, errno as text for their messages, and a write of every byte.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "perfgate/core/expected.hpp"

namespace perfgate::detail {

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    // Hands the descriptor to the caller, who closes it.
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }

private:
    int fd_;
};

inline std::string errno_text() { return std::strerror(errno); }

// Writes all of `bytes`, retrying after EINTR. The error is errno's text ("short write" when
// write() returns 0); the caller adds the file's name and what it does about the partial bytes.
inline Status write_all(int fd, std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return make_error(n < 0 ? errno_text() : std::string("short write"));
        done += static_cast<std::size_t>(n);
    }
    return Ok{};
}

}  // namespace perfgate::detail
