#include <catch2/catch.hpp>

#include "escape.hpp"

using namespace perfgate::report;

TEST_CASE("markdown_text leaves no markup, HTML or table separator", "[report][escape]") {
    const auto s = markdown_text("a|b <img src=x onerror=alert(1)> *bold* [l](u) `c`\nnext & more");
    CHECK(s.find('<') == std::string::npos);
    CHECK(s.find('>') == std::string::npos);
    CHECK(s.find('\n') == std::string::npos);
    CHECK(s.find("&lt;img") != std::string::npos);
    CHECK(s.find("&amp; more") != std::string::npos);
    // every '|', '*', '[', '`' is preceded by a backslash
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == '|' || s[i] == '*' || s[i] == '[' || s[i] == '`') CHECK((i > 0 && s[i - 1] == '\\'));
    CHECK(markdown_text("Qwen3-0.6B-4bit") == "Qwen3-0.6B-4bit");
}

TEST_CASE("markdown_code_block fences longer than any backtick run", "[report][escape]") {
    const auto b = markdown_code_block("echo ```` done");
    CHECK(b.rfind("`````\n", 0) == 0);
    CHECK(b.find("\n`````\n") != std::string::npos);
    CHECK(markdown_code_block("ls").rfind("```\nls\n```\n", 0) == 0);
}

TEST_CASE("gnuplot_string is a single-quoted literal with quotes doubled", "[report][escape]") {
    CHECK(gnuplot_string("a'b") == "'a''b'");
    CHECK(gnuplot_string("x\ny") == "'x y'");
    CHECK(gnuplot_string("`rm -rf x` @m \"q\"") == "'`rm -rf x` @m \"q\"'");
}

TEST_CASE("file_slug keeps only safe characters", "[report][escape]") {
    CHECK(file_slug("Qwen3-0.6B-4bit") == "Qwen3-0.6B-4bit");
    CHECK(file_slug("../etc/passwd") == "x..-etc-passwd");
    CHECK(file_slug("a b/c)") == "a-b-c-");
    CHECK(file_slug(std::string(100, 'a')).size() == 60);
}

TEST_CASE("markdown_text escapes only what markdown needs", "[report][escape]") {
    // Intraword underscores and parentheses are plain text on GitHub: left alone.
    CHECK(markdown_text("NVIDIA_H200_CUDA13.0_126GB") == "NVIDIA_H200_CUDA13.0_126GB");
    CHECK(markdown_text("Intel(R) Xeon(R) #1 + more!") == "Intel(R) Xeon(R) #1 + more!");
    // An underscore at a word's edge can open emphasis, and is escaped.
    CHECK(markdown_text("_x_ a_ _b") == "\\_x\\_ a\\_ \\_b");
    CHECK(markdown_text("~~s~~ $x$ a\\b") == "\\~\\~s\\~\\~ \\$x\\$ a\\\\b");
}
