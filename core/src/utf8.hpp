#pragma once
// UTF-8 decoding shared by the text checks (text.cpp) and the escaping (escape.cpp).
#include <cstddef>
#include <string_view>

namespace perfgate::detail {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is invalid.
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) return 1;
    std::size_t len = (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || b == 0xC0 || b == 0xC1 || b > 0xF4 || i + len > s.size()) return 0;
    for (std::size_t k = 1; k < len; ++k)
        if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
    return len;
}

}  // namespace perfgate::detail
