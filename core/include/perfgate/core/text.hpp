#pragma once
// Small text checks shared by every parser of external input.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate {

struct TextDefect {
    std::size_t line;  // 1-based line of the first defect
    std::string what;  // "NUL byte", "invalid UTF-8 byte 0xff"
};

// Finds the first NUL byte or invalid UTF-8 sequence, which mark a binary or corrupted file.
std::optional<TextDefect> find_binary_or_invalid_utf8(std::string_view text);

// A short, printable excerpt of runtime output for error messages: at most `max_chars`,
// control bytes and invalid UTF-8 replaced by '?'.
std::string printable_excerpt(std::string_view text, std::size_t max_chars = 300);

std::string_view trim(std::string_view s);

// The parts of `text` between `sep`s, empty ones kept ("a;;b" -> a, "", b); views into `text`.
std::vector<std::string_view> split(std::string_view text, char sep);

// "1 pair", "2 pairs", "0 pairs": a count with its noun in the right number (`plural` defaults
// to the noun with an s).
std::string counted(std::size_t n, std::string_view noun, std::string_view plural = {});

// The lines of `text` that hold more than blanks, trimmed, each with its 1-based line number: the
// records of a JSON Lines file (llama-bench's -o jsonl, SGLang's bench_serving output).
struct NumberedLine {
    std::size_t number;
    std::string_view text;
};
std::vector<NumberedLine> nonblank_lines(std::string_view text);

// 1-based line of a byte offset in `text` (offsets past the end count as the end). Turns
// nlohmann_json's byte positions into the file:line that perfgate's messages name.
std::size_t line_of_offset(std::string_view text, std::size_t offset);

// What `f` makes of each of the first `max` items, for fmt::join. Not std::views::transform:
// clang-14, which builds the fuzzers, cannot compile libstdc++ 12's <ranges> views.
template <class Range, class F>
auto mapped(const Range& items, F f, std::size_t max = static_cast<std::size_t>(-1)) {
    std::vector<decltype(f(*std::begin(items)))> out;
    for (const auto& item : items) {
        if (out.size() == max) break;
        out.push_back(f(item));
    }
    return out;
}

}  // namespace perfgate
