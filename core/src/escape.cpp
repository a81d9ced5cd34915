#include "perfgate/core/escape.hpp"

#include <cstring>

#include "utf8.hpp"

namespace perfgate {
namespace {

using detail::utf8_sequence_length;

// The code point of the valid UTF-8 sequence of `len` bytes at s[i].
char32_t code_point(std::string_view s, std::size_t i, std::size_t len) {
    const auto b = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(s[i + k])); };
    switch (len) {
        case 1: return b(0);
        case 2: return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
        case 3: return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
        default: return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
    }
}

bool is_control(char32_t cp) { return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F); }

// Code points that show no text of their own but change how the text around them is shown or
// read, or that a text format cannot carry: zero-width characters, bidirectional marks,
// embeddings, overrides and isolates (U+202E shows "lmth.exe" as "exe.html"), the line and
// paragraph separators (a new line in most viewers), the byte-order mark, surrogates, and the
// noncharacters U+FDD0..U+FDEF and U+xFFFE/U+xFFFF of every plane, which XML 1.0 refuses.
bool is_invisible_or_noncharacter(char32_t cp) {
    return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2069) ||
           cp == 0xFEFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

// Walks `text` by code point: `keep` decides for each valid one whether it is copied; anything
// else (and every invalid byte) is written as `replacement`.
template <class Keep>
std::string filtered(std::string_view text, Keep keep, char replacement) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t len = utf8_sequence_length(text, i);
        if (len == 0 || !keep(code_point(text, i, len))) {
            out += replacement;
            i += len == 0 ? 1 : len;
            continue;
        }
        out.append(text.substr(i, len));
        i += len;
    }
    return out;
}

// GitHub turns "https://...", "www...." and "name@host.tld" in plain text into links (its autolink
// extension); a backslash before the ':' of "://", the '.' after "www" or the '@' keeps them text.
bool starts_autolink(std::string_view text, std::size_t i) {
    const char ch = text[i];
    if (ch == ':') return text.substr(i, 3) == "://";
    if (ch == '@') return true;
    if (ch == '.') return i >= 3 && (text.substr(i - 3, 3) == "www" || text.substr(i - 3, 3) == "WWW");
    return false;
}

}  // namespace

std::string console_text(std::string_view text) {
    return filtered(text, [](char32_t cp) { return !is_control(cp) && !is_invisible_or_noncharacter(cp); }, '?');
}

std::size_t console_width(std::string_view text) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size(); ++width) {
        const std::size_t len = utf8_sequence_length(text, i);
        i += len == 0 ? 1 : len;
    }
    return width;
}

std::string markdown_text(std::string_view text) {
    // Controls and invisible characters become spaces first (a newline would end a table row).
    const std::string visible =
        filtered(text, [](char32_t cp) { return !is_control(cp) && !is_invisible_or_noncharacter(cp); }, ' ');
    // Only what can start markup inline or end a table cell: code spans, emphasis, links, GFM
    // strikethrough, GitHub's math, a backslash, the cell separator; HTML as entities. '(' ')' '#'
    // '+' '!' and the like mean nothing in the middle of a cell, and escaping them shows as clutter
    // in plain text.
    static constexpr const char* escaped = "\\`*[]|~$";
    const auto is_word = [](char ch) {
        const auto c = static_cast<unsigned char>(ch);
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
    };
    std::string out;
    out.reserve(visible.size());
    for (std::size_t i = 0; i < visible.size(); ++i) {
        const char ch = visible[i];
        if (ch == '<') out += "&lt;";
        else if (ch == '>') out += "&gt;";
        else if (ch == '&') out += "&amp;";
        // An underscore between two word characters (NVIDIA_H200, sm_90) never opens emphasis.
        else if (ch == '_' && !(i > 0 && is_word(visible[i - 1]) && i + 1 < visible.size() && is_word(visible[i + 1])))
            out += "\\_";
        else if (std::strchr(escaped, ch) != nullptr || starts_autolink(visible, i)) {
            out += '\\';
            out += ch;
        } else out += ch;
    }
    return out;
}

std::string xml_characters(std::string_view text) {
    // XML 1.0 carries tab, newline and CR of the C0 range; C1 controls it allows but "discourages",
    // and a report has no use for them.
    return filtered(
        text,
        [](char32_t cp) {
            if (cp == '\t' || cp == '\n' || cp == '\r') return true;
            return !is_control(cp) && !is_invisible_or_noncharacter(cp);
        },
        '?');
}

}  // namespace perfgate
