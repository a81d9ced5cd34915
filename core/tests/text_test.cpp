#include <catch2/catch.hpp>

#include "perfgate/core/text.hpp"

using namespace perfgate;

TEST_CASE("binary and invalid UTF-8 are found with their line", "[text]") {
    CHECK_FALSE(find_binary_or_invalid_utf8("plain\nline ± µ 🐟\n"));
    auto nul = find_binary_or_invalid_utf8(std::string("a\nb\n\0", 5));
    REQUIRE(nul);
    CHECK(nul->line == 3);
    auto bad = find_binary_or_invalid_utf8("ok\n\xC3(");
    REQUIRE(bad);
    CHECK(bad->line == 2);
    CHECK(find_binary_or_invalid_utf8("\xF0\x9F\x90"));  // truncated 4-byte sequence
}

TEST_CASE("printable excerpts are bounded and clean", "[text]") {
    CHECK(printable_excerpt("abc\x01\xff" "def") == "abc??def");
    auto long_text = std::string(1000, 'x');
    auto e = printable_excerpt(long_text, 10);
    CHECK(e == "xxxxxxxxxx [...]");
    CHECK(trim("  a b \n") == "a b");
}
