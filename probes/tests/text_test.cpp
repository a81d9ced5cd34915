#include <catch2/catch.hpp>

#include "text.hpp"

using namespace perfgate::probes;

TEST_CASE("strip_ansi removes real and written-out escape codes", "[probes][text]") {
    CHECK(strip_ansi("\x1b[37mROCk module is loaded\x1b[0m\r") == "ROCk module is loaded");
    CHECK(strip_ansi("ESC[37mROCk module is loadedESC[0m") == "ROCk module is loaded");
    CHECK(strip_ansi("plain [brackets] stay") == "plain [brackets] stay");
}

TEST_CASE("split_key_value splits at the first colon and skips a doubled one", "[probes][text]") {
    CHECK(split_key_value("  Alloc Recommended Granule:4KB")->second == "4KB");
    CHECK(split_key_value("  Packet Processor uCode:: 1")->second == "1");
    CHECK_FALSE(split_key_value("no separator"));
}

TEST_CASE("numbers: leading digits, overflow, decimal comma", "[probes][text]") {
    CHECK(parse_leading_uint("5510(0x1586)") == 5510u);
    CHECK_FALSE(parse_leading_uint("99999999999999999999999"));
    CHECK_FALSE(parse_leading_uint("N/A"));
    CHECK(parse_decimal("73728,00") == Approx(73728.0));
    CHECK(parse_decimal("11453.25") == Approx(11453.25));
}
