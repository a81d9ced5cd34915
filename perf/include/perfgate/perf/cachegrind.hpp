#pragma once
// valgrind's cachegrind output file (--cachegrind-out-file): the events it counted ("Ir", the
// instructions executed, and with --cache-sim=yes the simulated cache misses) and their totals on
// the `summary:` line. perfgate reads only the totals (docs/instructions.md).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::perf {

struct CachegrindCounts {
    std::string command;  // the `cmd:` line: what ran
    std::vector<std::pair<std::string, std::uint64_t>> totals;  // event, total; in the file's order

    // The total of `event` ("Ir"), or nothing when the file did not count it.
    std::optional<std::uint64_t> total(std::string_view event) const;
};

// Errors name `origin` and the line: no `events:` line, no `summary:` line, a summary whose
// numbers do not match the events or are no counts.
Expected<CachegrindCounts> parse_cachegrind_out(std::string_view text, const std::string& origin);

}  // namespace perfgate::perf
