#pragma once
// Size arithmetic on numbers read from files and tools: a product or sum that does not fit in
// 64 bits is no value at all, never a wrapped (and so much smaller) one.
#include <cstdint>
#include <limits>
#include <optional>

namespace perfgate {

// n * unit, or nullopt when the product does not fit in 64 bits.
inline std::optional<std::uint64_t> checked_multiply(std::uint64_t n, std::uint64_t unit) {
    if (unit != 0 && n > std::numeric_limits<std::uint64_t>::max() / unit) return std::nullopt;
    return n * unit;
}

// a + b, or nullopt when the sum does not fit in 64 bits.
inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
    if (a > std::numeric_limits<std::uint64_t>::max() - b) return std::nullopt;
    return a + b;
}

// a * b, or the largest 64-bit value when the product does not fit: for estimates compared
// against a limit, where "too large" is the answer either way.
inline std::uint64_t saturating_multiply(std::uint64_t a, std::uint64_t b) {
    return checked_multiply(a, b).value_or(std::numeric_limits<std::uint64_t>::max());
}

inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    return checked_add(a, b).value_or(std::numeric_limits<std::uint64_t>::max());
}

}  // namespace perfgate
