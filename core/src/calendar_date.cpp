#include "perfgate/core/calendar_date.hpp"

#include <chrono>

namespace perfgate {

bool looks_like_iso_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (i != 4 && i != 7 && (text[i] < '0' || text[i] > '9')) return false;
    return true;
}

std::optional<long> iso_day_number(std::string_view text) {
    if (!looks_like_iso_date(text)) return std::nullopt;
    auto digits = [&](std::size_t from, std::size_t count) {
        int value = 0;
        for (std::size_t i = from; i < from + count; ++i) value = value * 10 + (text[i] - '0');
        return value;
    };
    const std::chrono::year_month_day ymd{std::chrono::year{digits(0, 4)},
                                          std::chrono::month{static_cast<unsigned>(digits(5, 2))},
                                          std::chrono::day{static_cast<unsigned>(digits(8, 2))}};
    if (!ymd.ok()) return std::nullopt;
    return static_cast<long>(std::chrono::sys_days{ymd}.time_since_epoch().count());
}

}  // namespace perfgate
