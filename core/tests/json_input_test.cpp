#include <catch2/catch.hpp>

#include "perfgate/core/json_fields.hpp"
#include "perfgate/core/json_input.hpp"
#include "perfgate/core/json_optional.hpp"

using namespace perfgate;

namespace {

std::string error_of(const std::string& text) {
    auto doc = parse_json_document(text, "in.json");
    REQUIRE_FALSE(doc);
    return doc.error().message;
}

}  // namespace

TEST_CASE("a syntax error names the file and the line of the offending character", "[json_input]") {
    CHECK_THAT(error_of("{\n  \"a\": 1,\n  oops\n}"), Catch::StartsWith("in.json:3: invalid JSON: syntax error"));
    // An unterminated string ends at the newline it may not contain: the string's own line.
    CHECK_THAT(error_of("{\n  \"a\": \"open\n}"), Catch::StartsWith("in.json:2: invalid JSON:"));
    CHECK_THAT(error_of("{\n  \"a\": 1\n"), Catch::StartsWith("in.json:3: invalid JSON:"));
    CHECK_THAT(error_of(""), Catch::StartsWith("in.json:1: invalid JSON:"));
}

TEST_CASE("a number too large for a double is refused on its own line", "[json_input]") {
    const auto message = error_of("{\n  \"a\": 1,\n  \"b\": 1e400\n}");
    CHECK_THAT(message, Catch::StartsWith("in.json:3: invalid JSON:") && Catch::Contains("1e400"));
}

TEST_CASE("a member name given twice in one object is refused where it repeats", "[json_input]") {
    CHECK_THAT(error_of("{\n  \"a\": 1,\n  \"a\": 2\n}"),
               Catch::StartsWith("in.json:3: key \"a\" appears twice") && Catch::Contains("(top level)"));
    CHECK_THAT(error_of("{\"m\": {\"x\": [1, {\"k\": 1,\n \"k\": 2}]}}"),
               Catch::StartsWith("in.json:2:") && Catch::Contains("(/m/x/1)"));
    // Names are compared decoded: "k\u005fx" is k_x.
    CHECK_THAT(error_of("{\"k_x\": 1, \"k\\u005fx\": 2}"), Catch::Contains("\"k_x\" appears twice"));
    // The same name in two different objects is fine.
    CHECK(parse_json_document("{\"a\": {\"k\": 1}, \"b\": {\"k\": 2}}", "in.json"));
}

TEST_CASE("every value's line is found by its JSON pointer", "[json_input]") {
    const std::string text = "{\n  \"list\": [\n    1,\n    {\"name\": \"x\",\n     \"n\": 7\n    }\n  ],\n  \"a/b\": true\n}";
    auto doc = parse_json_document(text, "in.json");
    REQUIRE(doc);
    CHECK(doc->value["list"][1]["n"] == 7);
    CHECK(doc->lines.line_of("") == 1);
    CHECK(doc->lines.line_of("/list") == 2);
    CHECK(doc->lines.line_of("/list/0") == 3);
    CHECK(doc->lines.line_of("/list/1") == 4);
    CHECK(doc->lines.line_of("/list/1/n") == 5);
    CHECK(doc->lines.line_of("/a~1b") == 8);
    // An absent member falls back to its nearest ancestor.
    CHECK(doc->lines.line_of("/list/1/missing") == 4);
    CHECK(doc->where("/list/1/name") == "in.json:4");
}

TEST_CASE("a number at the end of a line is on that line, not the next", "[json_input]") {
    auto doc = parse_json_document("{\n  \"a\": 12\n  ,\n  \"b\": 3\n}", "in.json");
    REQUIRE(doc);
    CHECK(doc->lines.line_of("/a") == 2);
    CHECK(doc->lines.line_of("/b") == 4);
}

TEST_CASE("typed fields report the first problem with file:line", "[json_input]") {
    const std::string text =
        "{\n"
        "  \"outer\": {\n"
        "    \"inner\": {\n"
        "      \"count\": \"three\",\n"
        "      \"rate\": 2.5,\n"
        "      \"big\": 18446744073709551615\n"
        "    }\n"
        "  }\n"
        "}";
    auto doc = parse_json_document(text, "deep.json");
    REQUIRE(doc);
    JsonFields r(*doc);
    const auto& inner = doc->value["outer"]["inner"];
    CHECK(r.number(inner, "/outer/inner", "rate") == 2.5);
    CHECK_FALSE(r.failed());
    CHECK_FALSE(r.integer(inner, "/outer/inner", "count", 0));
    REQUIRE(r.failed());
    CHECK(r.error().message == "deep.json:4: \"count\" must be an integer >= 0");
    // Only the first problem is kept.
    r.fail("/outer", "later");
    CHECK(r.error().message == "deep.json:4: \"count\" must be an integer >= 0");
}

TEST_CASE("typed fields check ranges, required keys and unknown keys", "[json_input]") {
    auto doc = parse_json_document("{\n\"n\": 5,\n\"big\": 18446744073709551615,\n\"s\": [\"a\", 2],\n\"typo\": 1\n}", "f.json");
    REQUIRE(doc);
    const auto& o = doc->value;
    auto first_error = [&](auto read) {
        JsonFields r(*doc);
        read(r);
        return r.failed() ? r.error().message : std::string("no error");
    };
    CHECK(first_error([&](JsonFields& r) { r.number_in(o, "", "n", 0, 4); }) == "f.json:2: \"n\" must be a number from 0 to 4");
    CHECK(first_error([&](JsonFields& r) { CHECK(r.number_in(o, "", "n", 0, 5) == 5.0); }) == "no error");
    CHECK(first_error([&](JsonFields& r) { r.integer(o, "", "big", 0); }) == "f.json:3: \"big\" must be an integer >= 0");
    CHECK(first_error([&](JsonFields& r) { CHECK(r.unsigned_integer(o, "", "big", 1) == 18446744073709551615ULL); }) == "no error");
    CHECK(first_error([&](JsonFields& r) { r.string(o, "", "absent", JsonFields::Need::required); }) == "f.json:1: missing \"absent\"");
    CHECK(first_error([&](JsonFields& r) { CHECK_FALSE(r.string(o, "", "absent")); }) == "no error");
    CHECK(first_error([&](JsonFields& r) { r.strings(o, "", "s"); }) == "f.json:4: expected a string");
    CHECK(first_error([&](JsonFields& r) { r.boolean(o, "", "n"); }) == "f.json:2: \"n\" must be true or false");
    CHECK(first_error([&](JsonFields& r) { r.integers(o, "", "n", 0); }) == "f.json:2: \"n\" must be an array of integers");
    CHECK(first_error([&](JsonFields& r) { r.integers(o, "", "s", 0); }) == "f.json:4: expected an integer >= 0");
    CHECK(first_error([&](JsonFields& r) { r.only_keys(o, "", {"n", "big", "s"}, "the file"); }) ==
          "f.json:5: unknown key \"typo\" in the file (allowed: n, big, s)");
}

TEST_CASE("an empty optional is written as null and read back as empty", "[json_input]") {
    const std::optional<std::uint64_t> none, bytes = 42;
    const nlohmann::json j = {{"none", none}, {"bytes", bytes}};
    CHECK(j.dump() == R"({"bytes":42,"none":null})");
    CHECK_FALSE(j["none"].get<std::optional<std::uint64_t>>());
    CHECK(j["bytes"].get<std::optional<std::uint64_t>>() == 42u);
}

namespace {
// `depth` nested arrays around a number, the opening brackets on line 2.
std::string nested(std::size_t depth) {
    return "{\"a\":\n" + std::string(depth, '[') + "1" + std::string(depth, ']') + "}";
}
}  // namespace

TEST_CASE("nesting beyond the bound is refused with its line, before any walk over the value", "[json_input]") {
    // The document's object is one level, so max_json_depth - 1 arrays still fit.
    CHECK(parse_json_document(nested(max_json_depth - 1), "in.json"));
    CHECK_THAT(error_of(nested(max_json_depth)), Catch::StartsWith("in.json:2: JSON nested deeper than 64 levels"));
    // Issue 26 items 7 and 8: 100,000 levels (about 200 KB) crashed a recursive dump and made
    // the line recorder quadratic; now it is an error like any other.
    CHECK_THAT(error_of(nested(100000)), Catch::StartsWith("in.json:2: JSON nested deeper than"));
}

TEST_CASE("untrusted JSON is parsed under the same bound, brackets inside strings do not count", "[json_input]") {
    REQUIRE(parse_json_value(nested(max_json_depth - 1)));
    const auto deep = parse_json_value(nested(100000));
    REQUIRE_FALSE(deep);
    CHECK_THAT(deep.error().message, Catch::StartsWith("JSON nested deeper than 64 levels") && Catch::Contains("(line 2)"));
    const auto quoted = parse_json_value("{\"a\": \"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"}");
    REQUIRE(quoted);
    CHECK((*quoted)["a"].get<std::string>().size() == 2001);
    CHECK_FALSE(parse_json_value("{\"a\": "));
}

TEST_CASE("an array of integers is read in order, each checked against its minimum", "[json_input]") {
    auto doc = parse_json_document("{\n\"c\": [1, 4, 16],\n\"low\": [\n2,\n0\n],\n\"huge\": [18446744073709551615]\n}", "i.json");
    REQUIRE(doc);
    JsonFields r(*doc);
    CHECK(r.integers(doc->value, "", "c", 1) == std::vector<std::int64_t>{1, 4, 16});
    CHECK(r.integers(doc->value, "", "absent", 1).empty());
    CHECK_FALSE(r.failed());
    CHECK(r.integers(doc->value, "", "low", 1) == std::vector<std::int64_t>{2});
    REQUIRE(r.failed());
    CHECK(r.error().message == "i.json:5: expected an integer >= 1");
    JsonFields huge(*doc);
    CHECK(huge.integers(doc->value, "", "huge", 0).empty());
    CHECK(huge.error().message == "i.json:7: expected an integer >= 0");
}
