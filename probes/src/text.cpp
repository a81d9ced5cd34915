#include "text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

namespace perfgate::probes {

namespace {
// Skips a CSI sequence body ("[37m", "[0;1m") starting at `i`; returns the index after it.
std::size_t skip_csi(std::string_view text, std::size_t i) {
    if (i >= text.size() || text[i] != '[') return i;
    ++i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == ';' || text[i] == '?')) ++i;
    if (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    return i;
}
}  // namespace

std::string strip_ansi(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '\x1b') {
            i = skip_csi(text, i + 1);
        } else if (text.substr(i, 4) == "ESC[") {  // the escape written out literally in pastes
            i = skip_csi(text, i + 3);
        } else if (text[i] == '\r') {
            ++i;
        } else {
            out.push_back(text[i++]);
        }
    }
    return out;
}

std::string trim(std::string_view text) {
    const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    std::size_t b = 0, e = text.size();
    while (b < e && is_space(text[b])) ++b;
    while (e > b && is_space(text[e - 1])) --e;
    return std::string(text.substr(b, e - b));
}

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end = text.find('\n', start);
        if (end == std::string_view::npos) {
            if (start < text.size()) lines.emplace_back(text.substr(start));
            break;
        }
        lines.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    for (auto& l : lines)
        if (!l.empty() && l.back() == '\r') l.pop_back();
    return lines;
}

std::optional<std::pair<std::string, std::string>> split_key_value(std::string_view line, char sep) {
    const auto pos = line.find(sep);
    if (pos == std::string_view::npos) return std::nullopt;
    auto value = line.substr(pos + 1);
    while (!value.empty() && value.front() == sep) value.remove_prefix(1);  // "uCode::"
    return std::make_pair(trim(line.substr(0, pos)), trim(value));
}

std::optional<std::uint64_t> parse_leading_uint(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && text[i] == ' ') ++i;
    if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    std::uint64_t value = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
        const std::uint64_t digit = static_cast<std::uint64_t>(text[i] - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return std::nullopt;
        value = value * 10 + digit;
    }
    return value;
}

std::optional<int> parse_index(std::string_view text) {
    const auto n = parse_leading_uint(text);
    if (!n || *n > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) return std::nullopt;
    return static_cast<int>(*n);
}

std::optional<std::uint32_t> parse_hex_u32(std::string_view text) {
    if (text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0) text.remove_prefix(2);
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
    if (ec != std::errc() || end == text.data()) return std::nullopt;
    return value;
}

std::optional<double> parse_decimal(std::string_view text) {
    std::string s = trim(text);
    std::size_t n = 0;
    while (n < s.size() && (std::isdigit(static_cast<unsigned char>(s[n])) || s[n] == '.' || s[n] == ',')) ++n;
    s.resize(n);
    if (s.empty()) return std::nullopt;
    std::replace(s.begin(), s.end(), ',', '.');  // locale decimal comma ("73728,00 MB")
    if (std::count(s.begin(), s.end(), '.') > 1) return std::nullopt;
    try {
        return std::stod(s);
    } catch (...) {
        return std::nullopt;
    }
}

std::string to_lower(std::string_view text) {
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace perfgate::probes
