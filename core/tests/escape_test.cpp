#include <catch2/catch.hpp>

#include "perfgate/core/escape.hpp"
#include "perfgate/core/text.hpp"

using namespace perfgate;

namespace {
// The hostile model name of docs/reliability.md, attack case "markup and escape sequences in names".
const std::string hostile = "evil\x1b[31m</details><img src=x onerror=alert(1)>|name";
}  // namespace

TEST_CASE("console_text leaves no control character, C1 control or invalid byte", "[core][escape]") {
    const auto s = console_text(hostile + "\n\t\x7f" + "\xc2\x9b" + "31m" + "\xff");
    for (unsigned char c : s) {
        CHECK(c >= 0x20);
        CHECK(c != 0x7f);
    }
    CHECK(s.find("\xc2\x9b") == std::string::npos);  // CSI as one 8-bit code
    CHECK(s.find('\xff') == std::string::npos);
    CHECK_THAT(s, Catch::StartsWith("evil?[31m</details>"));
    // Ordinary names, and printable UTF-8 beyond the C1 range, are kept as they are.
    CHECK(console_text("Meta-Llama-3.1-8B-Instruct-4bit") == "Meta-Llama-3.1-8B-Instruct-4bit");
    CHECK(console_text("σ café ⚠") == "σ café ⚠");
}

TEST_CASE("console_width counts code points", "[core][escape]") {
    CHECK(console_width("qwen3moe-a1b") == 12);
    CHECK(console_width("σ 2.1%") == 6);
    CHECK(console_width("") == 0);
}

TEST_CASE("markdown_text leaves no HTML, markup or table separator", "[core][escape]") {
    const auto s = markdown_text(hostile + "\nnext & *more*");
    CHECK(s.find('<') == std::string::npos);
    CHECK(s.find('>') == std::string::npos);
    CHECK(s.find('\n') == std::string::npos);
    CHECK(s.find('\x1b') == std::string::npos);
    CHECK_THAT(s, Catch::Contains("&lt;/details&gt;") && Catch::Contains("&lt;img src=x onerror=alert(1)&gt;"));
    // Only what markup needs: NVIDIA_H200 and (R) stay as written.
    CHECK(markdown_text("NVIDIA_H200 (R) sm_90") == "NVIDIA_H200 (R) sm_90");
    CHECK_THAT(s, Catch::Contains("\\|name") && Catch::Contains("&amp; \\*more\\*"));
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == '|') CHECK((i > 0 && s[i - 1] == '\\'));
    CHECK(markdown_text("qwen3-0.6b") == "qwen3-0.6b");
}

TEST_CASE("xml_characters keeps only what XML 1.0 can carry", "[core][escape]") {
    const auto s = xml_characters(hostile + "\"'&\n\t\r\x7f" + "\xc2\x9b" + "\x01\xff");
    CHECK(s.find('\x1b') == std::string::npos);
    CHECK(s.find('\x01') == std::string::npos);
    CHECK(s.find('\xff') == std::string::npos);
    // Markup is the XML writer's to escape; tab, newline and CR stay. DEL and the C1 controls are
    // XML 1.0 characters but "discouraged", and no report needs them (issue 26 item 14).
    CHECK(s == "evil?[31m</details><img src=x onerror=alert(1)>|name\"'&\n\t\r????");
    CHECK(xml_characters("σ café ⚠") == "σ café ⚠");
}

TEST_CASE("counted puts the noun in the right number", "[core][text]") {
    CHECK(counted(1, "pair") == "1 pair");
    CHECK(counted(2, "pair") == "2 pairs");
    CHECK(counted(0, "pair") == "0 pairs");
    CHECK(counted(1, "new pair") == "1 new pair");
    CHECK(counted(3, "entry", "entries") == "3 entries");
}

TEST_CASE("invisible characters and noncharacters reach no output (issue 26 item 14)", "[core][escape]") {
    // U+202E (right-to-left override), U+200B (zero width space), U+2028 (line separator), U+FEFF,
    // U+FFFE and U+FFFF (noncharacters: no XML 1.0 character), U+1FFFF (a plane-1 noncharacter).
    const std::string name = "m\u202Eodel\u200B-\u2028x\uFEFF" "\xEF\xBF\xBE" "\xEF\xBF\xBF" "\xF0\x9F\xBF\xBF" "!";
    CHECK(console_text(name) == "m?odel?-?x????!");
    CHECK(xml_characters(name) == "m?odel?-?x????!");
    CHECK(markdown_text(name) == "m odel - x    !");
    // C1 controls in markdown become spaces like C0 ones.
    CHECK(markdown_text("a\xc2\x85" "b\xc2\x9b" "c") == "a b c");
    // Printable text outside those ranges is kept: U+2010 (hyphen), U+FFFD, a plane-1 emoji.
    CHECK(console_text("a\u2010b\uFFFD\U0001F600") == "a\u2010b\uFFFD\U0001F600");
    CHECK(xml_characters("a\u2010b\uFFFD\U0001F600") == "a\u2010b\uFFFD\U0001F600");
}

TEST_CASE("bare URLs and e-mail addresses in markdown stay text", "[core][escape]") {
    CHECK(markdown_text("see https://evil.example/x") == "see https\\://evil.example/x");
    CHECK(markdown_text("www.evil.example") == "www\\.evil.example");
    CHECK(markdown_text("ops@evil.example") == "ops\\@evil.example");
    // Ordinary names with dots and colons are unchanged.
    CHECK(markdown_text("llama-3.1-8b Q4_0 12:30") == "llama-3.1-8b Q4_0 12:30");
}
