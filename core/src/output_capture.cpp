#include "output_capture.hpp"

#include <algorithm>
#include <cerrno>
#include <poll.h>
#include <unistd.h>

#include "perfgate/core/process.hpp"

namespace perfgate::detail {

void BoundedBuffer::append(std::string_view data) {
    const std::size_t head_limit = limit_ / 2, tail_limit = limit_ - limit_ / 2;
    if (head_.size() < head_limit) {
        const std::size_t take = std::min(data.size(), head_limit - head_.size());
        head_.append(data.substr(0, take));
        data.remove_prefix(take);
    }
    if (data.empty()) return;
    tail_.append(data);
    if (tail_.size() > tail_limit) {
        dropped_ += tail_.size() - tail_limit;
        tail_.erase(0, tail_.size() - tail_limit);
    }
}

std::string BoundedBuffer::text() const {
    if (dropped_ == 0) return head_ + tail_;
    return head_ + dropped_output_mark(dropped_) + tail_;
}

namespace {
void pass_lines(CapturedStream& s, std::string_view data, const std::function<void(std::string_view)>& on_line) {
    s.partial_line.append(data);
    std::size_t nl;
    while ((nl = s.partial_line.find('\n')) != std::string::npos) {
        on_line(std::string_view(s.partial_line).substr(0, nl));
        s.partial_line.erase(0, nl + 1);
    }
    // A "line" this long is binary noise, not progress; dropping it keeps memory flat.
    if (s.partial_line.size() > 4096) s.partial_line.clear();
}
}  // namespace

void pump(const std::vector<CapturedStream*>& streams, std::chrono::milliseconds wait,
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
            if (s->is_stderr && on_line) pass_lines(*s, data, on_line);
        }
    }
}

void finish(const std::vector<CapturedStream*>& streams, const std::function<void(std::string_view)>& on_line) {
    for (auto* s : streams) {
        if (s->fd >= 0) ::close(s->fd);
        s->fd = -1;
        if (s->is_stderr && on_line && !s->partial_line.empty()) on_line(s->partial_line);
        s->partial_line.clear();
    }
}

}  // namespace perfgate::detail
