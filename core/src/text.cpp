#include "perfgate/core/text.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "utf8.hpp"

namespace perfgate {

using detail::utf8_sequence_length;

std::optional<TextDefect> find_binary_or_invalid_utf8(std::string_view text) {
    std::size_t line = 1;
    for (std::size_t i = 0; i < text.size();) {
        char c = text[i];
        if (c == '\n') ++line;
        if (c == '\0') return TextDefect{line, "NUL byte"};
        std::size_t len = utf8_sequence_length(text, i);
        if (len == 0)
            return TextDefect{line, fmt::format("invalid UTF-8 byte 0x{:02x}", static_cast<unsigned char>(c))};
        i += len;
    }
    return std::nullopt;
}

std::string printable_excerpt(std::string_view text, std::size_t max_chars) {
    std::string out;
    std::size_t i = 0;
    for (; i < text.size() && out.size() < max_chars;) {
        std::size_t len = utf8_sequence_length(text, i);
        auto b = static_cast<unsigned char>(text[i]);
        if (len == 0 || (b < 0x20 && b != '\n' && b != '\t')) {
            out += '?';
            i += len == 0 ? 1 : len;
            continue;
        }
        out.append(text.substr(i, len));
        i += len;
    }
    if (i < text.size()) out += " [...]";
    return out;
}

std::vector<NumberedLine> nonblank_lines(std::string_view text) {
    std::vector<NumberedLine> out;
    std::size_t number = 0, start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find('\n', start), text.size());
        ++number;
        const auto content = trim(text.substr(start, end - start));
        start = end + 1;
        if (!content.empty()) out.push_back({number, content});
    }
    return out;
}

std::size_t line_of_offset(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

std::string_view trim(std::string_view s) {
    const char* ws = " \t\r\n\f\v";
    auto b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return {};
    auto e = s.find_last_not_of(ws);
    return s.substr(b, e - b + 1);
}

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const auto at = text.find(sep, start);
        out.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos) return out;
        start = at + 1;
    }
}

std::string counted(std::size_t n, std::string_view noun, std::string_view plural) {
    if (n == 1) return fmt::format("1 {}", noun);
    return plural.empty() ? fmt::format("{} {}s", n, noun) : fmt::format("{} {}", n, plural);
}

}  // namespace perfgate
