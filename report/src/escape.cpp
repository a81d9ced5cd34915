#include "escape.hpp"

#include <algorithm>

namespace perfgate::report {
namespace {

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

}  // namespace

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

std::string html_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

}  // namespace perfgate::report
