#include "perfgate/gates/calendar.hpp"

#include <chrono>
#include <cstdlib>

#include <fmt/format.h>

#include "perfgate/core/calendar_date.hpp"

namespace perfgate::gates {

bool is_iso_date(std::string_view text) { return day_number(text).has_value(); }

std::optional<long> day_number(std::string_view iso_date) { return iso_day_number(iso_date); }

std::string iso_date_of_day(long days) {
    const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
    return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                       static_cast<unsigned>(ymd.day()));
}

std::optional<long> calendar_days_apart(std::string_view a, std::string_view b) {
    auto da = day_number(a), db = day_number(b);
    if (!da || !db) return std::nullopt;
    return std::labs(*da - *db);
}

}  // namespace perfgate::gates
