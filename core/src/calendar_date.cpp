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

// By hand, on top of iso_day_number: GCC 12's libstdc++ (Debian 12) has no std::chrono::parse, and
// Boost.Date_Time's ISO readers throw on bad input and accept forms the rows never hold; this
// reads exactly what the runner writes and says nullopt for anything else.
std::optional<long long> iso_utc_seconds(std::string_view text) {
    if (text.size() < 19 || text[10] != 'T' || text[13] != ':' || text[16] != ':') return std::nullopt;
    const auto day = iso_day_number(text.substr(0, 10));
    if (!day) return std::nullopt;
    auto two = [&](std::size_t at) -> int {
        const char a = text[at], b = text[at + 1];
        return (a < '0' || a > '9' || b < '0' || b > '9') ? -1 : (a - '0') * 10 + (b - '0');
    };
    const int h = two(11), m = two(14), s = two(17);
    if (h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 60) return std::nullopt;
    std::string_view rest = text.substr(19);
    if (!rest.empty() && rest.front() == '.') {
        rest.remove_prefix(1);
        if (rest.empty() || rest.front() < '0' || rest.front() > '9') return std::nullopt;
        while (!rest.empty() && rest.front() >= '0' && rest.front() <= '9') rest.remove_prefix(1);
    }
    if (rest == "Z") rest.remove_prefix(1);
    if (!rest.empty()) return std::nullopt;
    return static_cast<long long>(*day) * 86400 + h * 3600 + m * 60 + s;
}

}  // namespace perfgate
