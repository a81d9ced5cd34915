// One grouping of rows into runs (core/row_runs.hpp): the gate's noise model takes its runs from
// it, so its rule for rows without a run_id is the one every committed verdict was made with.
#include <catch2/catch.hpp>

#include "perfgate/core/row_runs.hpp"
#include "perfgate/gates/noise_model.hpp"

using namespace perfgate;
using namespace perfgate::gates;

namespace {

ResultRow row_of(const std::string& run_id, double decode, std::size_t line) {
    ResultRow r;
    r.model = "m";
    r.runtime = "llama-bench";
    r.status = StatusToken{"ok"};
    r.date = "2026-11-29";
    r.run_id = run_id;
    r.decode_tok_s = decode;
    r.source_file = "cpu_cpu-epyc_2026-11-29.csv";
    r.source_line = line;
    return r;
}

}  // namespace

TEST_CASE("group_into_runs: rows sharing a run id are one run, rows without one a run each, in first-row order",
          "[runs]") {
    const std::vector<ResultRow> rows{row_of("b", 10, 2), row_of("", 30, 3), row_of("a", 20, 4), row_of("b", 12, 5),
                                      row_of("", 31, 6)};
    std::vector<const ResultRow*> pointers;
    for (const auto& r : rows) pointers.push_back(&r);
    const auto runs = group_into_runs(pointers);
    REQUIRE(runs.size() == 4);
    CHECK(runs[0].run == "b");
    CHECK(runs[0].rows == std::vector<const ResultRow*>{&rows[0], &rows[3]});  // a rerun inside run b
    CHECK(runs[1].run == "cpu_cpu-epyc_2026-11-29.csv:3");
    CHECK(runs[2].run == "a");
    CHECK(runs[3].run == "cpu_cpu-epyc_2026-11-29.csv:6");
    for (const auto& r : rows) CHECK(run_key(r) == (r.run_id.empty() ? r.source_file + ":" + std::to_string(r.source_line) : r.run_id));
}

TEST_CASE("the gate's run levels are group_into_runs' runs, in time order with file order for ties", "[runs][noise]") {
    const std::vector<ResultRow> rows{row_of("b", 10, 2), row_of("", 30, 3), row_of("a", 20, 4), row_of("b", 12, 5)};
    ModelCatalog catalog;
    const auto groups = group_rows(rows, {}, catalog);
    REQUIRE(groups.size() == 1);
    const auto runs = group_into_runs(groups[0].ok_rows);
    const auto levels = run_levels(groups[0], "decode_tok_s");
    REQUIRE(levels.size() == runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO(i);
        CHECK(levels[i].run == runs[i].run);  // one date for all: the order of their first rows
        CHECK(levels[i].launches == runs[i].rows.size());
    }
    CHECK(levels[0].value == Approx(11.0));
}
