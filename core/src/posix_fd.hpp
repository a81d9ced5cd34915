#pragma once
// The file-descriptor helpers of core's file access (the locked CSV writers, the bounded reader):
// one owner that closes, and errno as text for their messages.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

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

private:
    int fd_;
};

inline std::string errno_text() { return std::strerror(errno); }

}  // namespace perfgate::detail
