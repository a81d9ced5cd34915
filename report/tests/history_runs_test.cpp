// The page's history (points and charts) and the gate's noise model group the same rows into the
// same runs: one function makes them (core/row_runs.hpp), so the page never draws a history the
// gate did not judge.
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "perfgate/core/csv.hpp"
#include "perfgate/gates/noise_model.hpp"
#include "perfgate/gates/samples.hpp"
#include "perfgate/report/history_series.hpp"
#include "report_test_support.hpp"

using namespace perfgate;
using namespace perfgate::report;

namespace {

ResultRow run_row(double decode, const std::string& run_id) {
    ResultRow r = test::make_row({.model = "m", .host = "cpu-testbox", .date = "2026-10-01", .prompt_tokens = 128,
                                  .prompt_target_len = 128, .generated_tokens = 32, .decode_tok_s = decode,
                                  .prefill_tok_s = 100});
    r.decode_tok_s_samples = {decode * 0.999, decode, decode * 1.001};
    r.run_id = run_id;
    return r;
}

}  // namespace

TEST_CASE("the page's history points and the gate's runs are the same runs of the same rows", "[report][runs]") {
    testing::TempDir dir;
    const auto path = dir.file("cpu_cpu-testbox_2026-10-01.csv");
    // Run r1 with a rerun of the pair (two rows, one run), run r2, and two rows without a run_id
    // (mlxcel's kind), which are a run each.
    const std::vector<ResultRow> rows{run_row(10, "r1"), run_row(12, "r1"), run_row(20, "r2"), run_row(30, ""),
                                      run_row(40, "")};
    testing::write_perfgate_csv(path, rows);

    // The gate's runs: its noise model over the file's pair.
    auto file = read_results_csv(path);
    REQUIRE(file);
    gates::RowContext context;
    context.file_name = gates::parse_benchmark_file_name(path);
    const auto groups = gates::group_rows(file->rows, context, gates::ModelCatalog{});
    REQUIRE(groups.size() == 1);
    std::map<std::string, double> gate_runs;
    for (const auto& level : gates::run_levels(groups[0], "decode_tok_s")) gate_runs[level.run] = level.value;

    // The page's runs: the history points of the same file.
    auto data = load_report_data({path});
    REQUIRE(data);
    std::map<std::string, double> page_runs;
    for (const auto& point : collect_history(dir.path.string(), *data).points) page_runs[point.run] = point.decode_tok_s;

    CHECK(gate_runs.size() == 4);
    CHECK(gate_runs.count("r1") == 1);
    CHECK(gate_runs["r1"] == Approx(11.0).epsilon(0.001));  // two launches of one run: the median of both
    REQUIRE(page_runs.size() == gate_runs.size());
    for (const auto& [run, value] : gate_runs) {
        INFO(run);
        REQUIRE(page_runs.count(run) == 1);
        CHECK(page_runs[run] == Approx(value));
    }
}
