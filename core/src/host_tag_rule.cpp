#include "perfgate/core/host_tag_rule.hpp"

#include <fmt/format.h>

#include "perfgate/core/text.hpp"

namespace perfgate {

bool is_valid_host_tag(std::string_view tag) {
    // Same language as ^[a-z0-9]+(-[a-z0-9]+)*$, without std::regex (used on every row read).
    if (tag.empty() || tag.front() == '-' || tag.back() == '-') return false;
    char previous = 0;
    for (char c : tag) {
        const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!word && c != '-') return false;
        if (c == '-' && previous == '-') return false;
        previous = c;
    }
    return true;
}

std::optional<std::string> host_tag_problem(std::string_view tag, std::string_view source) {
    if (is_valid_host_tag(tag)) return std::nullopt;
    return fmt::format("host tag '{}' from {} is not a valid host tag (lowercase letters and digits in words joined "
                       "by '-', e.g. strixhalo-gfx1151)",
                       printable_excerpt(tag, 80), source);
}

}  // namespace perfgate
