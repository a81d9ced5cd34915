#pragma once
// Shared by the fuzz targets: an invariant that fails stops libFuzzer with the input saved as a
// crash artifact, and says which invariant it was.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace perfgate::fuzz {

[[noreturn]] inline void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "perfgate fuzz invariant violated: %s [%.*s]\n", what, static_cast<int>(detail.size()),
                 detail.data());
    std::abort();
}

inline void check(bool ok, const char* what, std::string_view detail = {}) {
    if (!ok) fail(what, detail);
}

// A field taken from one line of tool output must not carry line breaks or escape bytes
// into host facts, CSV cells or reports.
inline bool one_clean_line(std::string_view s) {
    return s.find_first_of("\n\r\x1b") == std::string_view::npos;
}

// A value read from a file (not a terminal) must at least stay on one line.
inline bool no_line_break(std::string_view s) { return s.find_first_of("\n") == std::string_view::npos; }

// True when `value` is one of the whole decimal numbers written in `text` (leading zeros allowed):
// a parser that reports a number must report one that was printed, not a wrapped or cut one.
inline bool printed_number(std::string_view text, std::uint64_t value) {
    const std::string want = std::to_string(value);
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] < '0' || text[i] > '9') { ++i; continue; }
        std::size_t end = i;
        while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
        std::size_t first = i;
        while (first + 1 < end && text[first] == '0') ++first;
        if (text.substr(first, end - first) == want) return true;
        i = end;
    }
    return false;
}

// Error messages promise "<name>:<line>: ..." with a line inside the text (or just past its end).
inline bool names_file_and_line(const std::string& message, const std::string& name, std::string_view text) {
    if (message.rfind(name + ":", 0) != 0) return false;
    std::size_t i = name.size() + 1, line = 0, digits = 0;
    while (i < message.size() && message[i] >= '0' && message[i] <= '9' && digits < 12) {
        line = line * 10 + static_cast<std::size_t>(message[i] - '0');
        ++i;
        ++digits;
    }
    if (digits == 0 || line == 0 || i >= message.size() || message[i] != ':') return false;
    std::size_t lines = 1;
    for (char c : text) lines += c == '\n';
    return line <= lines;
}

}  // namespace perfgate::fuzz
