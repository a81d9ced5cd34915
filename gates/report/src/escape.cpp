#include "perfgate/report/escape.hpp"

#include <algorithm>
#include <cstring>

namespace perfgate::report {
namespace {

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

bool is_word(char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

}  // namespace

std::string markdown_text(std::string_view text) {
    // Only what can start markup inline or end a table cell: code spans, emphasis, links, GFM
    // strikethrough, GitHub's math, a backslash, the cell separator. '(' ')' '#' '+' '!' and the
    // like mean nothing in the middle of a cell, and escaping them shows as clutter in plain text.
    static constexpr const char* escaped = "\\`*[]|~$";
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        const auto c = static_cast<unsigned char>(ch);
        if (is_control(c)) out += ' ';
        else if (ch == '<') out += "&lt;";
        else if (ch == '>') out += "&gt;";
        else if (ch == '&') out += "&amp;";
        // An underscore between two word characters (NVIDIA_H200, sm_90) never opens emphasis.
        else if (ch == '_' && !(i > 0 && is_word(text[i - 1]) && i + 1 < text.size() && is_word(text[i + 1]))) out += "\\_";
        else if (std::strchr(escaped, ch) != nullptr) {
            out += '\\';
            out += ch;
        } else out += ch;
    }
    return out;
}

std::string markdown_code_block(std::string_view text) {
    std::size_t longest = 0, run = 0;
    for (char ch : text) {
        run = ch == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    std::string body;
    for (char ch : text) body += (ch == '\r') ? '\n' : ch;
    if (!body.empty() && body.back() != '\n') body += '\n';
    return fence + "\n" + body + fence + "\n";
}

std::string gnuplot_string(std::string_view text) {
    std::string out = "'";
    for (char ch : text) {
        if (is_control(static_cast<unsigned char>(ch))) out += ' ';
        else if (ch == '\'') out += "''";
        else out += ch;
    }
    out += '\'';
    return out;
}

std::string file_slug(std::string_view text) {
    std::string out;
    for (char ch : text) {
        if (out.size() >= 60) break;
        const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                          ch == '.' || ch == '-';
        out += keep ? ch : '-';
    }
    if (out.empty() || out.front() == '.') out.insert(out.begin(), 'x');
    return out;
}

}  // namespace perfgate::report
