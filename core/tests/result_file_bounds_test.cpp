// Hardening issue, item 6: `perfgate gate --results /dev/zero` read without end. A result file
// must be a regular file of at most kMaxResultFileBytes; a record, a field and the row count are
// bounded too, each refused with the file and line.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/file_read.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir() { return test::temp_dir("bounds"); }

const std::string kHeader =
    "model,model_path,prompt_tokens,generated_tokens,prefill_ms,prefill_tok_s,decode_ms,decode_tok_s,date,"
    "hardware,mlxcel_version,build_type,max_tokens,prompt\n";

std::string row(const std::string& model, const std::string& prompt = "p") {
    return model + ",m/" + model + ",512,128,1,100,1,50,2026-12-01,hw,1,release,128," + prompt + "\n";
}

}  // namespace

TEST_CASE("a results path that is not a regular file is refused at once", "[core][csv][bounds]") {
    auto zero = read_results_csv("/dev/zero");
    REQUIRE_FALSE(zero);
    CHECK(zero.error().message ==
          "/dev/zero: not a regular file (a character device); perfgate reads results only from regular files");

    const auto dir = temp_dir();
    auto folder = read_results_csv(dir.string());
    REQUIRE_FALSE(folder);
    CHECK_THAT(folder.error().message, Catch::Contains("not a regular file (a directory)"));

    // A FIFO with no writer: opening it must not wait for one.
    const auto fifo = dir / "pipe.csv";
    fs::remove(fifo);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    auto pipe = read_results_csv(fifo.string());
    REQUIRE_FALSE(pipe);
    CHECK_THAT(pipe.error().message, Catch::Contains("not a regular file (a FIFO (pipe))"));
    fs::remove(fifo);

    // A symbolic link to a regular file is read.
    const auto real = dir / "real.csv";
    std::ofstream(real) << kHeader << row("a");
    const auto link = dir / "link.csv";
    fs::remove(link);
    fs::create_symlink(real, link);
    auto linked = read_results_csv(link.string());
    REQUIRE(linked);
    CHECK(linked->rows.size() == 1);
}

TEST_CASE("a file above the size limit is refused before it is read", "[core][csv][bounds]") {
    const auto path = temp_dir() / "big.csv";
    {
        std::ofstream out(path);
        out << kHeader;
    }
    fs::resize_file(path, kMaxResultFileBytes + 1);  // sparse: no disk space used
    auto big = read_results_csv(path.string());
    REQUIRE_FALSE(big);
    CHECK(big.error().message == path.string() + ": 268435457 bytes, more than the 268435456 bytes (256 MiB) a result file may have");
    auto small = read_regular_file(path.string(), 10);
    REQUIRE_FALSE(small);
    fs::remove(path);
}

TEST_CASE("records, fields and rows beyond their bounds are refused with the line", "[core][csv][bounds]") {
    // One line of 2 MiB without a line break (the shape of /dev/zero's text): its first field
    // passes the field bound first; a line of many short fields, the record bound.
    auto e = parse_results_csv(kHeader + row("a") + std::string(2u << 20, 'a'), "x.csv");
    REQUIRE_FALSE(e);
    CHECK(e.error().message == "x.csv:3: field 1 is longer than 65536 bytes, the most a result field may have");
    std::string short_fields;
    while (short_fields.size() < (2u << 20)) short_fields += "a,";
    e = parse_results_csv(kHeader + row("a") + short_fields, "x.csv");
    REQUIRE_FALSE(e);
    CHECK(e.error().message == "x.csv:3: a record longer than 1048576 bytes, the most a result row may have");

    // An unterminated quote no longer takes the rest of a large file into one field.
    std::string rest;
    while (rest.size() < (3u << 20)) rest += row("b");
    e = parse_results_csv(kHeader + row("a") + row("c", "\"open quote") + rest, "x.csv");
    REQUIRE_FALSE(e);
    CHECK(e.error().message == "x.csv:3: field 14 is longer than 65536 bytes, the most a result field may have");

    // A field of 64 KiB is read; one byte more is refused, wherever the field ends.
    const std::string at_limit(kMaxCsvFieldBytes, 'x');
    auto fine = parse_results_csv(kHeader + row("a", at_limit), "x.csv");
    REQUIRE(fine);
    CHECK(fine->rows[0].prompt.size() == kMaxCsvFieldBytes);
    for (const std::string& end : {std::string("\n"), std::string()}) {
        auto text = kHeader + row("a") + row("b", at_limit + "y");
        if (end.empty()) text.pop_back();  // the field ends the file
        e = parse_results_csv(text, "x.csv");
        REQUIRE_FALSE(e);
        CHECK(e.error().message == "x.csv:3: field 14 is longer than 65536 bytes, the most a result field may have");
    }

    // The row limit (500,000 by default; 3 here, to keep the test small): the limit is read, one
    // more row is refused at its line.
    CsvLimits three;
    three.rows = 3;
    auto all = parse_results_csv(kHeader + row("a") + row("b") + row("c"), "x.csv", three);
    REQUIRE(all);
    CHECK(all->rows.size() == 3);
    e = parse_results_csv(kHeader + row("a") + row("b") + row("c") + "\n" + row("d"), "x.csv", three);
    REQUIRE_FALSE(e);
    CHECK(e.error().message == "x.csv:6: more than 3 rows, the most a result file may hold");
    CHECK(CsvLimits{}.rows == 500'000);
    CHECK(CsvLimits{}.record_bytes == 1u << 20);
    CHECK(CsvLimits{}.field_bytes == 1u << 16);
}
