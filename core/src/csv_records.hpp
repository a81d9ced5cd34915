#pragma once
// CSV records as they lie in a results file's text, for the code that rewrites a file under its
// lock (perfgate prune drops records, the appender upgrades an older header): where each record
// begins and ends, its fields unquoted, and its fields exactly as written, so a rewrite can copy
// what it keeps byte for byte instead of formatting values again.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::detail {

struct RawRecord {
    std::size_t begin = 0, end = 0, line = 0;  // [begin, end) includes the line end; line: its first
    std::vector<std::string> fields;           // unquoted
    std::vector<std::string_view> raw_fields;  // as written (quotes and doubled quotes kept), into the text
    std::string_view line_end;                 // "\n", "\r\n", or empty for a last record without one

    // An empty line: one empty field.
    bool blank() const { return fields.size() == 1 && fields[0].empty(); }
};

// The record that starts at `pos` (on physical line `line`). A quoted field may span lines, so
// records are found by following quotes, not lines. An error (name:line) for an unterminated quote.
Expected<RawRecord> next_raw_record(std::string_view text, std::size_t pos, std::size_t line, const std::string& name);

// How many line ends [begin, end) of `text` holds.
std::size_t lines_in(std::string_view text, std::size_t begin, std::size_t end);

}  // namespace perfgate::detail
