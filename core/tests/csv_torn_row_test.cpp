// A torn last row (issue 26, item 12): what a write cut short leaves, e.g. an older perfgate killed
// by SIGXFSZ under a file-size limit. Reading reports it (file:line) and skips it; the next append
// cuts it off under the lock instead of refusing the file or gluing a row onto it.
#include <catch2/catch.hpp>

#include <filesystem>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/csv_prune.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

namespace {

ResultRow row(const std::string& model, const std::string& run) {
    ResultRow r;
    r.model = model;
    r.run_id = run;
    r.decode_tok_s = 10.0;
    r.prompt = "two\nlines";  // a quoted line break: the torn row's last '\n' lies inside its quotes
    return r;
}

// The header, one whole row (lines 2-3), and the first `cut` bytes of a second row.
std::string torn_text(std::size_t cut) {
    const std::string second = format_result_row(row("m2", "r2"));
    return perfgate_header_line() + "\n" + format_result_row(row("m1", "r1")) + second.substr(0, cut);
}

}  // namespace

TEST_CASE("a torn last row is reported with its line and skipped when read", "[csv][torn]") {
    const std::string second = format_result_row(row("m2", "r2"));
    const std::size_t in_quotes = second.find("two\n") + 4;  // just past the prompt's line break
    for (std::size_t cut : {std::size_t{5}, std::size_t{60}, in_quotes, second.size() - 1}) {
        INFO("torn after " << cut << " bytes");
        auto f = parse_results_csv(torn_text(cut), "cpu_h_2026-12-01.csv");
        REQUIRE(f);
        REQUIRE(f->rows.size() == 1);
        CHECK(f->rows[0].model == "m1");
        REQUIRE(f->warnings.size() == 1);
        CHECK_THAT(f->warnings[0], Catch::StartsWith("cpu_h_2026-12-01.csv:4: a torn last row"));
    }
    // Only perfgate's own files: mlxcel's may end without a line end, and their last row counts.
    auto mlxcel = read_results_csv(test::mlxcel_csv("cuda_gb10_2026-07-12.csv"));
    REQUIRE(mlxcel);
    CHECK(mlxcel->warnings.empty());
}

TEST_CASE("an append cuts a torn last row off first, and says where", "[csv][torn][append]") {
    const auto dir = test::fresh_dir("perfgate-torn", "append");
    const std::string second = format_result_row(row("m2", "r2"));
    const std::size_t in_quotes = second.find("two\n") + 4;  // just past the prompt's line break
    int day = 1;
    for (std::size_t cut : {std::size_t{5}, in_quotes}) {
        const auto path = (dir / ("cpu_h_2026-12-0" + std::to_string(day++) + ".csv")).string();
        test::write_file(path, torn_text(cut));
        REQUIRE(append_results_locked(path, {row("m3", "r3")}));
        CHECK(test::read_file(path) == perfgate_header_line() + "\n" + format_result_row(row("m1", "r1")) +
                                           format_result_row(row("m3", "r3")));
        auto f = read_results_csv(path);
        REQUIRE(f);
        CHECK(f->rows.size() == 2);
        CHECK(f->warnings.empty());
    }
}
