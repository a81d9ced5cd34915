// The cachegrind output format (valgrind's docs, "Cachegrind output file format"): `desc:` lines,
// one `cmd:` line, one `events:` line naming the counted events, then per-file and per-function
// count lines, and a `summary:` line with one total per event. Only the header and the summary are
// read: the totals are what the instruction metrics need, and the per-line counts are the largest
// part of the file.
#include "perfgate/perf/cachegrind.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fmt/format.h>

#include "perfgate/core/text.hpp"

namespace perfgate::perf {
namespace {

// The space-separated words of a line (cachegrind ends its events: line with a space).
std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    for (auto w : split(trim(line), ' '))
        if (!w.empty()) out.push_back(w);
    return out;
}

std::optional<std::uint64_t> count_of(std::string_view word) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
    if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
    return v;
}

}  // namespace

std::optional<std::uint64_t> CachegrindCounts::total(std::string_view event) const {
    for (const auto& [name, value] : totals)
        if (name == event) return value;
    return std::nullopt;
}

Expected<CachegrindCounts> parse_cachegrind_out(std::string_view text, const std::string& origin) {
    CachegrindCounts counts;
    std::vector<std::string_view> events;
    std::size_t events_line = 0, line_number = 0;
    for (std::size_t start = 0; start < text.size();) {
        const auto end = text.find('\n', start);
        const std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        start = end == std::string_view::npos ? text.size() : end + 1;
        ++line_number;
        if (line.starts_with("cmd:")) {
            counts.command = printable_excerpt(trim(line.substr(4)), 512);
        } else if (line.starts_with("events:")) {
            if (events_line) return make_error(fmt::format("{}:{}: cachegrind: a second events: line (the first is line {})",
                                                           origin, line_number, events_line));
            events = words(line.substr(7));
            events_line = line_number;
            if (events.empty()) return make_error(fmt::format("{}:{}: cachegrind: an events: line naming no event", origin, line_number));
            // Event names are short identifiers (Ir, I1mr, DLmw, Bcm): anything else is not this format.
            for (const auto e : events)
                if (!std::all_of(e.begin(), e.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
                    return make_error(fmt::format("{}:{}: cachegrind: '{}' is not an event name", origin, line_number,
                                                  printable_excerpt(e, 40)));
        } else if (line.starts_with("summary:")) {
            if (!events_line)
                return make_error(fmt::format("{}:{}: cachegrind: summary: before any events: line", origin, line_number));
            const auto values = words(line.substr(8));
            if (values.size() != events.size())
                return make_error(fmt::format("{}:{}: cachegrind: the summary has {} numbers for {} events", origin,
                                              line_number, values.size(), events.size()));
            for (std::size_t i = 0; i < values.size(); ++i) {
                const auto v = count_of(values[i]);
                if (!v)
                    return make_error(fmt::format("{}:{}: cachegrind: summary value '{}' of {} is not a count", origin,
                                                  line_number, printable_excerpt(values[i], 40), events[i]));
                counts.totals.emplace_back(std::string(events[i]), *v);
            }
            return counts;
        }
    }
    if (!events_line) return make_error(fmt::format("{}:1: cachegrind: no events: line (not a cachegrind output file?)", origin));
    return make_error(fmt::format("{}:{}: cachegrind: no summary: line (the run was cut short?)", origin, line_number));
}

}  // namespace perfgate::perf
