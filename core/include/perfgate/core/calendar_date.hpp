#pragma once
// The one place for what a date in perfgate's files is: YYYY-MM-DD naming a real calendar day
// (2026-02-30 is refused, 2028-02-29 accepted). Used by the CSV reader for the `date` column and
// by the gate for dates in file names (gates/calendar.hpp builds on it).
#include <optional>
#include <string_view>

namespace perfgate {

// Days from 1970-01-01; nullopt for anything that is not a valid YYYY-MM-DD date.
std::optional<long> iso_day_number(std::string_view text);

// Shaped like a date (four digits, '-', two digits, '-', two digits), real or not: such a field in
// a file name is meant as the date, so an impossible one is an error rather than "no date".
bool looks_like_iso_date(std::string_view text);

// Seconds from 1970-01-01T00:00:00Z of a UTC timestamp as rows write it, YYYY-MM-DDTHH:MM:SS with an
// optional fraction and an optional Z; nullopt for anything else (another zone, a bare date).
std::optional<long long> iso_utc_seconds(std::string_view text);

}  // namespace perfgate
