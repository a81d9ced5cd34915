// Any bytes given to the CSV reader end in a parsed file or an error value — never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "perfgate/core/csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = perfgate::parse_results_csv(text, "fuzz.csv");
    if (parsed) {
        // Whatever parsed must write back to something that parses again to the same row count.
        std::string out = perfgate::perfgate_header_line() + "\n";
        for (const auto& r : parsed->rows) out += perfgate::format_result_row(r);
        auto again = perfgate::parse_results_csv(out, "fuzz-roundtrip.csv");
        if (!again || again->rows.size() != parsed->rows.size()) __builtin_trap();
    }
    return 0;
}
