// Issue 18 items 1 and 5: NaN, infinity, negative numbers and impossible dates stop at the reader
// with file:line and the column, so they never reach the gate's statistics; zero stays readable
// (mlxcel's history has real 0.00 decode rates) and the rules are the ones recording uses.
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

#include "perfgate/core/calendar_date.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/core/host_tag_rule.hpp"
#include "perfgate/core/measure_rules.hpp"
#include "perfgate/test/rows.hpp"

using namespace perfgate;

namespace {
// perfgate's own header, so the *_samples columns are read too.
std::string perfgate_file(const std::string& decode, const std::string& samples, const std::string& date = "2026-11-29") {
    std::string line = format_result_row(test::make_row());
    std::string text = perfgate_header_line() + "\n" + line;
    // Edit the fields by column position of perfgate's schema.
    const auto& cols = perfgate_columns();
    std::vector<std::string> fields;
    std::string f;
    for (char c : line) {
        if (c == ',' || c == '\n') { fields.push_back(f); f.clear(); } else f += c;
    }
    for (std::size_t i = 0; i < cols.size(); ++i) {
        if (cols[i] == "decode_tok_s") fields[i] = decode;
        if (cols[i] == "decode_tok_s_samples") fields[i] = samples;
        if (cols[i] == "date") fields[i] = date;
    }
    std::string out = perfgate_header_line() + "\n";
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + fields[i];
    return out + "\n";
}

std::string error_of(const std::string& text) {
    auto r = parse_results_csv(text, "cpu_cpu-epyc_2026-11-29.csv");
    REQUIRE_FALSE(r.has_value());
    return r.error().message;
}
}  // namespace

TEST_CASE("NaN, infinity and negative readings are refused with file:line and the column", "[csv][measure]") {
    REQUIRE(parse_results_csv(perfgate_file("10.00", "9.5;10;10.5"), "x.csv"));
    for (const char* bad : {"nan", "NaN", "inf", "-inf", "infinity", "-3.00"}) {
        INFO(bad);
        auto msg = error_of(perfgate_file(bad, "9.5;10"));
        CHECK_THAT(msg, Catch::StartsWith("cpu_cpu-epyc_2026-11-29.csv:2: column 'decode_tok_s'"));
        auto in_samples = error_of(perfgate_file("10.00", std::string("9.5;") + bad + ";10"));
        CHECK_THAT(in_samples, Catch::StartsWith("cpu_cpu-epyc_2026-11-29.csv:2: column 'decode_tok_s_samples'"));
    }
    CHECK_THAT(error_of(perfgate_file("nan", "")), Catch::Contains("not a finite number"));
    CHECK_THAT(error_of(perfgate_file("-1", "")), Catch::Contains("negative"));
}

TEST_CASE("a zero rate stays readable: history holds real 0.00 decode rates", "[csv][measure]") {
    auto r = parse_results_csv(perfgate_file("0.00", "0;0"), "x.csv");
    REQUIRE(r);
    CHECK(*r->rows.front().decode_tok_s == 0.0);
}

TEST_CASE("an impossible date in a row is refused, not matched as text", "[csv][measure]") {
    auto msg = error_of(perfgate_file("10.00", "", "2026-02-30"));
    CHECK_THAT(msg, Catch::StartsWith("cpu_cpu-epyc_2026-11-29.csv:2: column 'date'"));
    CHECK_THAT(msg, Catch::Contains("2026-02-30"));
    CHECK(parse_results_csv(perfgate_file("10.00", "", "2028-02-29"), "x.csv"));  // a leap day
    CHECK(parse_results_csv(perfgate_file("10.00", "", ""), "x.csv"));            // unknown stays allowed
}

TEST_CASE("the date, rate and host-tag rules", "[csv][measure]") {
    CHECK(iso_day_number("1970-01-02") == 1);
    CHECK_FALSE(iso_day_number("2026-02-30"));
    CHECK_FALSE(iso_day_number("2026-13-01"));
    CHECK(looks_like_iso_date("2026-02-30"));
    CHECK_FALSE(looks_like_iso_date("20260230"));
    // Timestamps as rows write them: seconds since the epoch, UTC.
    CHECK(iso_utc_seconds("1970-01-02T00:00:01Z") == 86401);
    CHECK(iso_utc_seconds("2026-11-29T18:45:25Z") == *iso_utc_seconds("2026-11-29T18:44:25.5") + 60);
    CHECK_FALSE(iso_utc_seconds("2026-11-29"));
    CHECK_FALSE(iso_utc_seconds("2026-11-29T18:45:25+02:00"));
    CHECK_FALSE(iso_utc_seconds("2026-11-29T24:00:00Z"));
    CHECK_FALSE(iso_utc_seconds("2026-02-30T10:00:00Z"));
    CHECK_FALSE(iso_utc_seconds("2026-11-29T18:45:25."));

    CHECK_FALSE(implausible_rate(64.5));
    CHECK(implausible_rate(0.0));
    CHECK(implausible_rate(-1.0));
    CHECK(implausible_rate(1e308));
    CHECK(implausible_rate(std::numeric_limits<double>::infinity()));
    CHECK(implausible_rate(std::numeric_limits<double>::quiet_NaN()));
    CHECK_FALSE(unreadable_measure(0.0));
    CHECK(unreadable_measure(-0.5));

    for (const char* ok : {"h200", "strixhalo-gfx1151", "cpu-epyc", "m1ultra"}) CHECK(is_valid_host_tag(ok));
    for (const char* bad : {"", "../../x", "a/b", "a_b", "A100", "a--b", "-a", "a-", "a.b", "..", "x\n"})
        CHECK_FALSE(is_valid_host_tag(bad));
    CHECK_THAT(*host_tag_problem("../../x", "--host"), Catch::Contains("'../../x' from --host"));
}
