// A page of sweeps (docs/serving.md, "Sweeps"): a sweep's points are one table over the swept
// setting, not columns of the results table; a page of servers only draws no empty rate chart.
#include <catch2/catch.hpp>
#include <boost/filesystem.hpp>
#include <fmt/format.h>

#include "perfgate/core/method_marks.hpp"
#include "perfgate/report/make_report.hpp"
#include "perfgate/test/rows.hpp"
#include "report_test_support.hpp"
#include "sweep_chart.hpp"

using namespace perfgate;
using namespace perfgate::report;
namespace fs = boost::filesystem;

namespace {

// A point of llama-server's concurrency sweep on model m: output tok/s, TTFT p50 and ITL p50.
ResultRow server_point(int concurrency, double tok_s, double ttft_ms, double itl_ms) {
    auto r = perfgate::test::make_row({.model = "m", .runtime = fmt::format("llama-server-c{}", concurrency),
                                       .host = "cpu-box", .date = "2026-10-01", .prompt_target_len = 128,
                                       .decode_tok_s = std::nullopt});
    r.batch = concurrency;
    r.flags = with_mark(load_mark(8, 0.5), sweep_mark("llama-server", SweepAxis::concurrency));
    r.serving_output_tok_s = tok_s;
    r.ttft_p50_ms = ttft_ms;
    r.itl_p50_ms = itl_ms;
    return r;
}

std::string page_of(testing::TempDir& dir, const std::vector<ResultRow>& rows) {
    const auto csv = dir.file("cpu_cpu-box_2026-10-01.csv");
    testing::write_perfgate_csv(csv, rows);
    ReportOptions o;
    o.results = {csv};
    o.output = dir.file("out/page.md");
    o.charts.enabled = false;
    auto outcome = make_report(o);
    REQUIRE(outcome);
    return testing::read_text(o.output);
}

}  // namespace

TEST_CASE("a sweep is a table over its setting, and the results table keeps the other runtimes", "[report][sweep]") {
    testing::TempDir dir;
    auto bench = perfgate::test::make_row({.model = "m", .runtime = "llama-bench", .host = "cpu-box", .date = "2026-10-01",
                                           .prompt_tokens = 128, .generated_tokens = 8, .decode_tok_s = 20.0,
                                           .prefill_tok_s = 80.0});
    const auto page = page_of(dir, {server_point(1, 50.0, 20.0, 3.0), server_point(4, 150.0, 40.0, 6.0),
                                    server_point(16, 300.0, 120.0, 12.5), bench});
    CHECK_THAT(page, Catch::Contains("# Benchmark results: llama-bench vs llama-server (concurrency 1, 4, 16) on cpu-box"));
    // The results table has llama-bench's columns and no point's.
    const auto results = page.substr(page.find("## Results"), page.find("### Sweeps") - page.find("## Results"));
    CHECK_THAT(results, Catch::Contains("llama-bench decode tok/s"));
    CHECK_THAT(results, !Catch::Contains("llama-server-c4"));
    // The sweep's table: a row per point, in the setting's order, a column per recorded figure.
    CHECK_THAT(page, Catch::Contains("**llama-server over concurrency, m**"));
    CHECK_THAT(page, Catch::Contains("| concurrency | Point | output tok/s | TTFT p50 ms | ITL p50 ms |"));
    CHECK_THAT(page, Catch::Contains("| 1 | llama-server-c1 | 50 | 20 | 3 |\n| 4 | llama-server-c4 | 150 | 40 | 6 |\n"
                                     "| 16 | llama-server-c16 | 300 | 120 | 12.5 |"));
}

TEST_CASE("a page of sweeps only has their tables, no rate columns and no efficiency", "[report][sweep]") {
    testing::TempDir dir;
    auto c8 = server_point(8, 900.0, 30.0, 8.0);
    c8.serving_output_tok_s_samples = {880.0, 900.0, 950.0};
    const auto page = page_of(dir, {server_point(1, 300.0, 12.0, 1.6), c8});
    CHECK_THAT(page, Catch::Contains("# Benchmark results: llama-server (concurrency 1, 8) on"));
    CHECK_THAT(page, !Catch::Contains("decode tok/s"));
    CHECK_THAT(page, !Catch::Contains("Decode efficiency"));
    CHECK_THAT(page, !Catch::Contains("| Model | Data |"));
    CHECK_THAT(page, Catch::Contains("| 8 | llama-server-c8 | 900 (880–950, n=3) |"));
}

TEST_CASE("a sweep of one point is a row of the servers table", "[report][sweep]") {
    testing::TempDir dir;
    auto lone = server_point(4, 150.0, 40.0, 6.0);
    const auto page = page_of(dir, {lone});
    CHECK_THAT(page, Catch::Contains("# Benchmark results: llama-server-c4 on"));
    CHECK_THAT(page, !Catch::Contains("### Sweeps"));
    CHECK_THAT(page, !Catch::Contains("llama-server-c4 output tok/s"));
    CHECK_THAT(page, Catch::Contains("| m | llama-server-c4 | - | ok | 150 | 40 | 6 |"));
}

TEST_CASE("servers that are no sweep are one table beside the results table, a row per model and server",
          "[report][sweep]") {
    testing::TempDir dir;
    const auto server = [](const std::string& model, int concurrency, double tok_s, double itl_ms) {
        auto r = perfgate::test::make_row({.model = model, .runtime = fmt::format("llama-server-c{}", concurrency),
                                           .host = "cpu-box", .date = "2026-10-01", .prompt_target_len = 128,
                                           .decode_tok_s = std::nullopt});
        r.batch = concurrency;
        r.serving_output_tok_s = tok_s;
        r.itl_p50_ms = itl_ms;
        return r;
    };
    auto bench = perfgate::test::make_row({.model = "m", .runtime = "llama-bench", .host = "cpu-box", .date = "2026-10-01",
                                           .prompt_tokens = 128, .generated_tokens = 8, .decode_tok_s = 20.0,
                                           .prefill_tok_s = 80.0});
    auto c4 = server("m", 4, 150.0, 6.0);
    c4.serving_output_tok_s_samples = {140.0, 150.0, 155.0};
    auto failed = server("n", 1, 0.0, 0.0);
    failed.status = StatusToken{"FAIL:bench"};
    failed.serving_output_tok_s.reset();
    failed.itl_p50_ms.reset();
    const auto page = page_of(dir, {bench, server("m", 1, 50.0, 3.0), c4, failed, server("n", 4, 90.0, 9.5)});
    CHECK_THAT(page, Catch::Contains("# Benchmark results: llama-bench vs llama-server-c1 vs llama-server-c4 on cpu-box"));
    // The results table has llama-bench's columns and none of the servers' figures.
    const auto results = page.substr(page.find("## Results"), page.find("### Servers") - page.find("## Results"));
    CHECK_THAT(results, Catch::Contains("llama-bench decode tok/s"));
    CHECK_THAT(results, !Catch::Contains("llama-server"));
    CHECK_THAT(results, !Catch::Contains("| n |"));  // a line of servers only
    CHECK_THAT(page, Catch::Contains("| Model | Server | Format | Status | output tok/s | ITL p50 ms |\n"));
    CHECK_THAT(page, Catch::Contains("| m | llama-server-c1 | - | ok | 50 | 3 |\n"
                                     "| m | llama-server-c4 | - | ok | 150 (140–155, n=3) | 6 |\n"
                                     "| n | llama-server-c1 | - | FAIL:bench | - | - |\n"
                                     "| n | llama-server-c4 | - | ok | 90 | 9.5 |\n"));
}

TEST_CASE("a sweep chart draws a panel of figures 20 times apart on a log scale", "[report][charts][sweep]") {
    SweepSeries sweep{"llama-server", "m", SweepAxis::concurrency, {}, {}, {}};
    sweep.medians["serving_output_tok_s"] = {{1, 270.0}, {8, 590.0}};
    sweep.medians["ttft_p99_ms"] = {{1, 49.0}, {8, 397.0}};
    sweep.medians["itl_p50_ms"] = {{1, 3.3}, {8, 9.6}};
    auto job = sweep_chart_job(sweep, "d.dat", "o.svg");
    // The tok/s panel stays linear from zero; the ms panel (3.3 to 397) is logarithmic, then reset.
    CHECK_THAT(job.script, Catch::Contains("set ylabel 'tok/s'\nset yrange [0:*]\nplot"));
    CHECK_THAT(job.script, Catch::Contains("set ylabel 'ms'\nset logscale y\nset yrange [*:*]\nplot"));
    CHECK_THAT(job.script, Catch::Contains("unset logscale y\n"));
    sweep.medians.erase("ttft_p99_ms");
    job = sweep_chart_job(sweep, "d.dat", "o.svg");
    CHECK_THAT(job.script, !Catch::Contains("logscale y"));
}

TEST_CASE("a page of servers draws no empty decode or prefill chart", "[report][charts][sweep]") {
    testing::TempDir dir;
    const std::string bin = dir.file("bin");
    fs::create_directories(bin);
    testing::write_text(bin + "/gnuplot", "#!/bin/sh\nexit 0\n");
    fs::permissions(bin + "/gnuplot", fs::owner_all);
    const auto csv = dir.file("cpu_cpu-box_2026-10-01.csv");
    testing::write_perfgate_csv(csv, {server_point(1, 300.0, 12.0, 1.6), server_point(8, 900.0, 30.0, 8.0)});
    auto data = load_report_data({csv});
    REQUIRE(data);
    ChartOptions options;
    options.search_path = bin;
    const auto out = draw_charts(*data, History{}, dir.file("out"), "page", options);
    REQUIRE(out.images.size() == 1);
    CHECK(out.images[0].file == "page_sweep_01_llama-server-m.svg");
}
