#include "perfgate/gates/calendar.hpp"

#include <chrono>
#include <cstdlib>

namespace perfgate::gates {

bool is_iso_date(std::string_view text) { return day_number(text).has_value(); }

std::optional<long> day_number(std::string_view iso_date) {
    if (iso_date.size() != 10 || iso_date[4] != '-' || iso_date[7] != '-') return std::nullopt;
    auto digits = [&](std::size_t from, std::size_t count) -> std::optional<int> {
        int value = 0;
        for (std::size_t i = from; i < from + count; ++i) {
            char c = iso_date[i];
            if (c < '0' || c > '9') return std::nullopt;
            value = value * 10 + (c - '0');
        }
        return value;
    };
    auto y = digits(0, 4), m = digits(5, 2), d = digits(8, 2);
    if (!y || !m || !d) return std::nullopt;
    std::chrono::year_month_day ymd{std::chrono::year{*y}, std::chrono::month{static_cast<unsigned>(*m)},
                                    std::chrono::day{static_cast<unsigned>(*d)}};
    if (!ymd.ok()) return std::nullopt;
    return static_cast<long>(std::chrono::sys_days{ymd}.time_since_epoch().count());
}

std::optional<long> calendar_days_apart(std::string_view a, std::string_view b) {
    auto da = day_number(a), db = day_number(b);
    if (!da || !db) return std::nullopt;
    return std::labs(*da - *db);
}

}  // namespace perfgate::gates
