// cachegrind's output file: an input is either its totals or an error that names the file and a
// line; a command read from it never spans lines, and every total belongs to a named event.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "perfgate/perf/cachegrind.hpp"

using perfgate::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto counts = perfgate::perf::parse_cachegrind_out(text, "cg.out");
    if (!counts) {
        check(counts.error().message.rfind("cg.out:", 0) == 0, "an error names the file and line", counts.error().message);
        return 0;
    }
    check(!counts->totals.empty(), "a parsed file has at least one total");
    check(perfgate::fuzz::one_clean_line(counts->command), "the command is one clean line", counts->command);
    for (const auto& [event, total] : counts->totals) {
        check(!event.empty() && event.find_first_of(" \t\n") == std::string::npos, "an event is one word", event);
        check(counts->total(event).has_value(), "each event's total can be looked up", event);
    }
    return 0;
}
