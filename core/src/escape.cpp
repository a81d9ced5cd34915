#include "perfgate/core/escape.hpp"

#include <cstring>

#include "utf8.hpp"

namespace perfgate {
namespace {

using detail::utf8_sequence_length;

bool is_c0_or_del(unsigned char c) { return c < 0x20 || c == 0x7f; }

// U+0080..U+009F, encoded as C2 80..C2 9F: 8-bit controls (CSI is U+009B).
bool is_c1(std::string_view s, std::size_t i, std::size_t len) {
    return len == 2 && static_cast<unsigned char>(s[i]) == 0xC2 && static_cast<unsigned char>(s[i + 1]) <= 0x9F;
}

}  // namespace

std::string console_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t len = utf8_sequence_length(text, i);
        if (len == 0 || (len == 1 && is_c0_or_del(static_cast<unsigned char>(text[i]))) || is_c1(text, i, len)) {
            out += '?';
            i += len == 0 ? 1 : len;
            continue;
        }
        out.append(text.substr(i, len));
        i += len;
    }
    return out;
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
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        const auto c = static_cast<unsigned char>(ch);
        if (is_c0_or_del(c)) out += ' ';
        else if (ch == '<') out += "&lt;";
        else if (ch == '>') out += "&gt;";
        else if (ch == '&') out += "&amp;";
        // An underscore between two word characters (NVIDIA_H200, sm_90) never opens emphasis.
        else if (ch == '_' && !(i > 0 && is_word(text[i - 1]) && i + 1 < text.size() && is_word(text[i + 1])))
            out += "\\_";
        else if (std::strchr(escaped, ch) != nullptr) {
            out += '\\';
            out += ch;
        } else out += ch;
    }
    return out;
}

std::string xml_characters(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t len = utf8_sequence_length(text, i);
        const auto c = static_cast<unsigned char>(text[i]);
        if (len == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r')) {  // DEL is allowed in XML 1.0
            out += '?';
            ++i;
            continue;
        }
        out.append(text.substr(i, len));
        i += len;
    }
    return out;
}

}  // namespace perfgate
