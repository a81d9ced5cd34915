#pragma once
// Small text helpers shared by the parsers: tool output arrives with colour codes, CRs, padding.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/checked_math.hpp"

namespace perfgate::probes {

// Tools print memory in MiB.
inline constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;

// Removes ANSI escape sequences, both real ESC bytes and the literal "ESC[37m" spelling seen in
// pasted rocminfo output, and carriage returns.
std::string strip_ansi(std::string_view text);
std::string trim(std::string_view text);
std::vector<std::string> split_lines(std::string_view text);
// "key: value" split at the first ':' (rocminfo has "Granule:4KB" and "uCode::" keys).
std::optional<std::pair<std::string, std::string>> split_key_value(std::string_view line, char sep = ':');
// Leading decimal digits as an integer; nullopt when there are none or they overflow.
std::optional<std::uint64_t> parse_leading_uint(std::string_view text);
// n * unit, or nullopt when the product does not fit in 64 bits (a size no tool really printed).
using perfgate::checked_multiply;
// Leading decimal digits as an index (card, device); nullopt when none or above INT_MAX.
std::optional<int> parse_index(std::string_view text);
// A hexadecimal id ("1586", after any "0x") that fits in 32 bits; nullopt otherwise.
std::optional<std::uint32_t> parse_hex_u32(std::string_view text);
// A decimal number that may use a comma as the decimal separator ("73728,00").
std::optional<double> parse_decimal(std::string_view text);
std::string to_lower(std::string_view text);

}  // namespace perfgate::probes
