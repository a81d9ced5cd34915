// Each kind of damage gets an error naming the file and the line.
#include <catch2/catch.hpp>

#include "perfgate/core/csv.hpp"

using namespace perfgate;

namespace {
const std::string kHeader =
    "model,model_path,prompt_tokens,generated_tokens,prefill_ms,prefill_tok_s,decode_ms,decode_tok_s,date,hardware,"
    "mlxcel_version,build_type,max_tokens,prompt,prompt_target_len,mlxcel_commit,mlx_commit\n";
const std::string kGood =
    "m1,p/,512,128,1.00,512.00,2.00,64.00,2026-09-06,H,0.7.0,release,128,\"Hello, how are you today?\",512,30ab5a39,9a795735\n";

std::string error_of(const std::string& text) {
    auto r = parse_results_csv(text, "bench.csv");
    REQUIRE_FALSE(r.has_value());
    return r.error().message;
}
}  // namespace

TEST_CASE("good input parses", "[csv][malformed]") {
    auto r = parse_results_csv(kHeader + kGood, "bench.csv");
    REQUIRE(r);
    CHECK(r->rows.size() == 1);
}

TEST_CASE("a ragged row names file and line", "[csv][malformed]") {
    auto msg = error_of(kHeader + kGood + "m2,p/,512,128\n");
    CHECK_THAT(msg, Catch::StartsWith("bench.csv:3:"));
    CHECK_THAT(msg, Catch::Contains("ragged"));
}

TEST_CASE("an extra field that is not a status token", "[csv][malformed]") {
    auto bad = kGood;
    bad.insert(bad.size() - 1, ",hello");
    auto msg = error_of(kHeader + bad);
    CHECK_THAT(msg, Catch::StartsWith("bench.csv:2:"));
    CHECK_THAT(msg, Catch::Contains("not a SKIP:/FAIL: token"));
}

TEST_CASE("a non-number in a numeric column", "[csv][malformed]") {
    std::string bad = kGood;
    bad.replace(bad.find("64.00"), 5, "fast!");
    auto msg = error_of(kHeader + kGood + bad);
    CHECK_THAT(msg, Catch::StartsWith("bench.csv:3:"));
    CHECK_THAT(msg, Catch::Contains("decode_tok_s") && Catch::Contains("not a number"));
}

TEST_CASE("a missing required column", "[csv][malformed]") {
    std::string header = kHeader;
    header.replace(header.find("decode_tok_s,"), 13, "");
    auto msg = error_of(header);
    CHECK_THAT(msg, Catch::StartsWith("bench.csv:1:"));
    CHECK_THAT(msg, Catch::Contains("missing required column 'decode_tok_s'"));
}

TEST_CASE("a binary file", "[csv][malformed]") {
    std::string bin = kHeader + kGood;
    bin += std::string("\x7f" "ELF\0\0\x01", 7);
    auto msg = error_of(bin);
    CHECK_THAT(msg, Catch::StartsWith("bench.csv:3:"));
    CHECK_THAT(msg, Catch::Contains("NUL byte"));
    auto msg2 = error_of(kHeader + "m\xff\xfe,x\n");
    CHECK_THAT(msg2, Catch::StartsWith("bench.csv:2:") && Catch::Contains("invalid UTF-8"));
}

TEST_CASE("an unterminated quote", "[csv][malformed]") {
    auto msg = error_of(kHeader + kGood + "m2,p/,,,,,,,2026-09-06,H,0.7.0,release,128,\"Hello\n");
    CHECK_THAT(msg, Catch::StartsWith("bench.csv:3:") && Catch::Contains("unterminated"));
}

TEST_CASE("a bad status token in perfgate's status column", "[csv][malformed]") {
    std::string header = perfgate_header_line() + "\n";
    ResultRow r;
    r.model = "m";
    std::string row = format_result_row(r);
    row.replace(row.rfind(",ok"), 3, ",SKIP:Bad Token");
    auto msg = error_of(header + row);
    CHECK_THAT(msg, Catch::StartsWith("bench.csv:2:") && Catch::Contains("status"));
}

TEST_CASE("an empty file and a missing file", "[csv][malformed]") {
    // 0 bytes (a file whose creation an older perfgate could not finish): no rows, and a warning.
    auto empty = parse_results_csv("", "bench.csv");
    REQUIRE(empty);
    CHECK(empty->rows.empty());
    REQUIRE(empty->warnings.size() == 1);
    CHECK_THAT(empty->warnings[0], Catch::StartsWith("bench.csv: empty file (0 bytes"));
    // A byte-order mark alone is not a header either, and not an empty file.
    CHECK_THAT(error_of("\xEF\xBB\xBF"), Catch::StartsWith("bench.csv:1:"));
    auto r = read_results_csv("/nonexistent/dir/x.csv");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains("/nonexistent/dir/x.csv"));
}
