// Charts: the page without gnuplot, and crafted names that must stay text in gnuplot, SVG and markdown.
#include <catch2/catch.hpp>
#include <boost/filesystem.hpp>

#include "perfgate/report/charts.hpp"
#include "gnuplot.hpp"
#include "sweep_chart.hpp"
#include "perfgate/core/method_marks.hpp"
#include <fmt/format.h>
#include <tuple>
#include "perfgate/report/make_report.hpp"
#include "perfgate/test/rows.hpp"
#include "report_test_support.hpp"

using namespace perfgate;
using namespace perfgate::report;
namespace fs = boost::filesystem;

namespace {

ResultRow simple_row(const std::string& runtime, const std::string& model, double decode) {
    return perfgate::test::make_row({.model = model, .runtime = runtime, .host = "cpu-box", .date = "2026-10-01",
                                     .prompt_tokens = 16, .generated_tokens = 8, .decode_tok_s = decode,
                                     .prefill_tok_s = decode * 4});
}

}  // namespace

TEST_CASE("without gnuplot the page renders, without charts, and says so", "[report][charts]") {
    testing::TempDir dir;
    const auto csv = dir.file("cpu_cpu-box_2026-10-01.csv");
    testing::write_perfgate_csv(csv, {simple_row("llama-bench", "m", 10)});
    ReportOptions o;
    o.results = {csv};
    o.output = dir.file("out/cpu_cpu-box_2026-10-01.md");
    o.charts.search_path = dir.file("empty-bin");  // a PATH without gnuplot
    fs::create_directories(o.charts.search_path);
    CHECK(find_gnuplot(o.charts.search_path).empty());
    auto outcome = make_report(o);
    REQUIRE(outcome);
    CHECK(outcome->chart_files.empty());
    const auto page = testing::read_text(o.output);
    CHECK(page.find("Charts not drawn: gnuplot was not found on the search path") != std::string::npos);
    CHECK(page.find("![") == std::string::npos);
    CHECK(testing::section(page, "Results").find("10.00") != std::string::npos);
    for (auto it = fs::directory_iterator(dir.file("out")); it != fs::directory_iterator(); ++it)
        CHECK(it->path().extension() != ".svg");
}

TEST_CASE("a crafted model name cannot inject gnuplot commands, SVG or markdown", "[report][charts][escape]") {
    testing::TempDir dir;
    const auto marker = dir.file("pwned");
    const std::string evil = "<img src=x> x'; system('touch " + marker + "') | a |\n# heading";
    const std::string evil2 = "q`touch " + marker + "`@x";
    const auto csv = dir.file("cpu_cpu-box_2026-10-01.csv");
    testing::write_perfgate_csv(csv, {simple_row("llama-bench", evil, 10), simple_row("llama-bench", evil2, 15),
                                   simple_row("llama-bench", "plain", 20)});
    ReportOptions o;
    o.results = {csv};
    o.output = dir.file("out/page.md");
    o.history_dir = dir.path;
    auto outcome = make_report(o);
    REQUIRE(outcome);
    CHECK_FALSE(fs::exists(marker));

    const auto page = testing::read_text(o.output);
    CHECK(page.find("<img") == std::string::npos);
    CHECK(page.find("\n# heading") == std::string::npos);
    const auto results = testing::first_table(testing::section(page, "Results"));
    REQUIRE(results.rows.size() == 3);
    for (const auto& r : results.rows) CHECK(r.size() == results.header.size());  // no injected columns

    // The script quotes every label; gnuplot itself ran (when installed) without running anything.
    auto data = load_report_data({csv});
    REQUIRE(data);
    const auto job = bar_chart_job(*data, "decode_tok_s", "/tmp/d.dat", "/tmp/o.svg");
    CHECK(job.script.find("'<img src=x> x''; system(''touch " + marker + "'') | a | # heading") != std::string::npos);
    CHECK(job.script.find("'q`touch " + marker + "`@x") != std::string::npos);
    CHECK(job.data.find("x'") == std::string::npos);  // names never reach the data file
    if (find_gnuplot("").empty()) {
        WARN("gnuplot is not installed: rendering not checked");
        return;
    }
    REQUIRE_FALSE(outcome->chart_files.empty());
    for (const auto& f : outcome->chart_files) {
        const auto svg = testing::read_text(f);
        CHECK(svg.find("<img") == std::string::npos);
        CHECK(fs::path(f).parent_path() == fs::path(dir.file("out")));  // slugged names stay beside the page
    }
    CHECK(testing::read_text(dir.file("out/page_decode.svg")).find("&lt;img src=x>") != std::string::npos);
}

TEST_CASE("a page of more lines than a chart can show draws no bar chart and says so", "[report][charts][bounds]") {
    // Hardening issue, item 7: 200,000 models made two 190 MB SVGs and a minute of gnuplot.
    testing::TempDir dir;
    const auto bin = dir.file("bin");
    fs::create_directories(bin);
    const auto calls = dir.file("gnuplot-calls");
    // A stand-in gnuplot that only records that it ran.
    testing::write_text(bin + "/gnuplot", "#!/bin/sh\necho ran >> '" + calls + "'\n");
    fs::permissions(bin + "/gnuplot", fs::owner_all);
    for (std::size_t lines : {kMaxBarChartLines, kMaxBarChartLines + 1}) {
        ReportData data;
        auto file = std::make_unique<LoadedFile>();
        file->file.generation = CsvGeneration::Perfgate;
        for (std::size_t m = 0; m < lines; ++m) file->file.rows.push_back(simple_row("llama-bench", "m" + std::to_string(m), 10));
        data.files.push_back(std::move(file));
        arrange_lines(data);
        REQUIRE(data.lines.size() == lines);
        fs::remove(calls);
        ChartOptions options;
        options.search_path = bin;
        const auto out = draw_charts(data, History{}, dir.file("out"), "page", options);
        INFO(lines);
        if (lines <= kMaxBarChartLines) {
            CHECK(out.omitted.empty());
            CHECK(out.images.size() == 2);  // decode and prefill
            CHECK(fs::exists(calls));
        } else {
            REQUIRE(out.omitted.size() == 1);
            CHECK(out.omitted[0] == "decode and prefill bar charts: 201 model lines, more than the 200 one chart can show");
            CHECK(out.images.empty());
            CHECK(out.not_drawn == "the page is too large for charts");
            CHECK_FALSE(fs::exists(calls));
        }
    }
}

TEST_CASE("a sweep's points are one chart over the swept setting, a panel per unit", "[report][charts][sweep]") {
    testing::TempDir dir;
    // A concurrency sweep of llama-server on m (points c1, c4, c16), a runtime outside any sweep,
    // and a sweep of one point (no chart: a point is no curve).
    std::vector<ResultRow> rows;
    const std::vector<std::tuple<int, double, double>> points{{1, 50.0, 20.0}, {4, 150.0, 40.0}, {16, 300.0, 120.0}};
    for (const auto& [concurrency, tok_s, ttft] : points) {
        auto r = perfgate::test::make_row({.model = "m", .runtime = fmt::format("llama-server-c{}", concurrency),
                                           .prompt_target_len = 128, .decode_tok_s = std::nullopt});
        r.batch = concurrency;
        r.flags = with_mark(load_mark(16, 0.5), sweep_mark("llama-server", SweepAxis::concurrency));
        r.serving_output_tok_s = tok_s;
        r.ttft_p50_ms = ttft;
        rows.push_back(r);
    }
    rows.push_back(simple_row("llama-bench", "m", 10));
    auto lone = perfgate::test::make_row({.model = "m", .runtime = "other-p64", .prompt_target_len = 64});
    lone.flags = sweep_mark("other", SweepAxis::prompt_tokens);
    rows.push_back(lone);
    const auto csv = dir.file("cpu_cpu-box_2026-10-01.csv");
    testing::write_perfgate_csv(csv, rows);
    auto data = load_report_data({csv});
    REQUIRE(data);
    const auto sweeps = sweep_series(*data);
    REQUIRE(sweeps.size() == 1);
    CHECK(sweeps[0].entry == "llama-server");
    CHECK(sweeps[0].axis == SweepAxis::concurrency);
    CHECK(sweeps[0].points() == 3);
    CHECK(sweeps[0].medians.at("serving_output_tok_s").at(16) == 300.0);
    CHECK(sweeps[0].medians.at("ttft_p50_ms").at(4) == 40.0);
    const auto job = sweep_chart_job(sweeps[0], "d.dat", "o.svg");
    CHECK_THAT(job.script, Catch::Contains("set multiplot layout 2,1") && Catch::Contains("set logscale x 2") &&
                               Catch::Contains("set xlabel 'concurrency'") && Catch::Contains("'1' 1, '4' 4, '16' 16"));
    CHECK(job.data == "1 50\n4 150\n16 300\n\n\n1 20\n4 40\n16 120\n");
    if (find_gnuplot("").empty()) {
        WARN("gnuplot is not installed: rendering not checked");
        return;
    }
    ReportOptions o;
    o.results = {csv};
    o.output = dir.file("out/page.md");
    auto outcome = make_report(o);
    REQUIRE(outcome);
    const auto svg = dir.file("out/page_sweep_01_llama-server-m.svg");
    REQUIRE(fs::exists(svg));
    CHECK_THAT(testing::read_text(svg), Catch::Contains("m: llama-server over concurrency"));
    CHECK_THAT(testing::read_text(o.output), Catch::Contains("page_sweep_01_llama-server-m.svg"));
}
