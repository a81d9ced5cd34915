#pragma once
// Reading a child's stdout and stderr without letting either block the other or grow without
// bound: process.cpp's loop polls both pipes through `pump`.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::detail {

// Keeps the first and the last half of a stream when it exceeds the bound: the head holds the
// program's banner, the tail its results and error messages.
class BoundedBuffer {
public:
    explicit BoundedBuffer(std::size_t limit) : limit_(limit) {}
    void append(std::string_view data);
    bool truncated() const { return dropped_ > 0; }
    std::string text() const;

private:
    std::size_t limit_;
    std::string head_, tail_;
    std::size_t dropped_ = 0;
};

struct CapturedStream {
    int fd = -1;  // the read end, owned; -1 once it reached end of file
    BoundedBuffer buffer;
    bool is_stderr = false;
    std::string partial_line;  // for the line callback
};

// Reads what is available on the open streams, waiting at most `wait`; closes a stream at its end.
// Complete stderr lines go to `on_line` as they arrive.
void pump(const std::vector<CapturedStream*>& streams, std::chrono::milliseconds wait,
          const std::function<void(std::string_view)>& on_line);

// Closes what is still open and hands a last unterminated stderr line to `on_line`.
void finish(const std::vector<CapturedStream*>& streams, const std::function<void(std::string_view)>& on_line);

}  // namespace perfgate::detail
