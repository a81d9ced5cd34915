#include "perfgate/core/host_tag_rule.hpp"

#include <fmt/format.h>

#include "perfgate/core/text.hpp"

namespace perfgate {

bool is_valid_host_tag(std::string_view tag) {
    // Same language as ^[a-z0-9]+(-[a-z0-9]+)*$, without std::regex (used on every row read).
    if (tag.empty() || tag.size() > kMaxHostTagLength || tag.front() == '-' || tag.back() == '-') return false;
    char previous = 0;
    for (char c : tag) {
        const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!word && c != '-') return false;
        if (c == '-' && previous == '-') return false;
        previous = c;
    }
    return true;
}

std::string cap_host_tag(std::string_view tag) {
    if (tag.size() <= kMaxHostTagLength) return std::string(tag);
    std::string_view cut = tag.substr(0, kMaxHostTagLength);
    // Cut at a word boundary when the first word fits; the word after the cut is dropped whole.
    if (tag[kMaxHostTagLength] != '-')
        if (const auto dash = cut.rfind('-'); dash != std::string_view::npos && dash > 0) cut = cut.substr(0, dash);
    while (!cut.empty() && cut.back() == '-') cut.remove_suffix(1);
    return std::string(cut);
}

std::optional<std::string> host_tag_problem(std::string_view tag, std::string_view source) {
    if (is_valid_host_tag(tag)) return std::nullopt;
    const std::string length = tag.size() > kMaxHostTagLength ? fmt::format("; it has {} characters", tag.size()) : "";
    return fmt::format("host tag '{}' from {} is not a valid host tag (lowercase letters and digits in words joined "
                       "by '-', e.g. strixhalo-gfx1151, at most {} characters{})",
                       printable_excerpt(tag, 80), source, kMaxHostTagLength, length);
}

}  // namespace perfgate
