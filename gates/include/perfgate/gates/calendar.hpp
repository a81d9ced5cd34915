#pragma once
// Calendar dates as written in result rows (YYYY-MM-DD). Gaps are counted in calendar days, never as
// the difference of YYYYMMDD integers (mlxcel's defect: 2026-09-30 .. 2026-10-01 came out as 71).
#include <optional>
#include <string>
#include <string_view>

namespace perfgate::gates {

bool is_iso_date(std::string_view text);
// Days from 1970-01-01; nullopt for anything that is not a valid YYYY-MM-DD date.
std::optional<long> day_number(std::string_view iso_date);
// The YYYY-MM-DD date `days` after 1970-01-01 (std::chrono's civil calendar).
std::string iso_date_of_day(long days);
// |a - b| in calendar days; nullopt when either date is invalid.
std::optional<long> calendar_days_apart(std::string_view a, std::string_view b);

}  // namespace perfgate::gates
