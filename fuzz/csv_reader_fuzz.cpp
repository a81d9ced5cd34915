// Any bytes given to the CSV reader end in a parsed file or an error value — never a crash — and
// what parses holds only finite, non-negative readings and real dates.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "perfgate/core/calendar_date.hpp"
#include "perfgate/core/csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = perfgate::parse_results_csv(text, "fuzz.csv");
    if (parsed) {
        // Issue 18: NaN, infinity and negative readings never leave the reader (they crashed the
        // gate's statistics), and every date it returns names a real day.
        for (const auto& r : parsed->rows) {
            for (const auto* v : {&r.prefill_ms, &r.prefill_tok_s, &r.decode_ms, &r.decode_tok_s, &r.cooldown_s})
                if (*v && !(std::isfinite(**v) && **v >= 0)) __builtin_trap();
            for (const auto* s : {&r.prefill_tok_s_samples, &r.decode_tok_s_samples})
                for (double x : *s)
                    if (!(std::isfinite(x) && x >= 0)) __builtin_trap();
            if (!r.date.empty() && !perfgate::iso_day_number(r.date)) __builtin_trap();
        }
        // Whatever parsed must write back to something that parses again to the same row count.
        std::string out = perfgate::perfgate_header_line() + "\n";
        for (const auto& r : parsed->rows) out += perfgate::format_result_row(r);
        auto again = perfgate::parse_results_csv(out, "fuzz-roundtrip.csv");
        if (!again || again->rows.size() != parsed->rows.size()) __builtin_trap();
    }
    return 0;
}
