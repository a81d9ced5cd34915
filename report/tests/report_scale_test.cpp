// Hardening issue, item 7: `perfgate report` was quadratic in the number of distinct models
// (20,000 rows 8.4 s; 200,000 not done after 300 s). The page is now built in time linear in the
// rows; the benchmark below times it ("[!benchmark]", not run by default), and the test checks
// that the lines, cells and ratios of a large page are still the right ones.
#include <chrono>
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "comparison.hpp"
#include "escape.hpp"
#include "page.hpp"
#include "perfgate/test/rows.hpp"
#include "perfgate/report/report_data.hpp"

using namespace perfgate;
using namespace perfgate::report;

namespace {

ResultRow row_of(const std::string& runtime, std::size_t model) {
    ResultRow r = perfgate::test::make_row({.model = fmt::format("synthetic-model-{:07}-Q4_0", model),
                                            .runtime = runtime, .host = "big-host", .date = "2026-12-01",
                                            .prompt_tokens = 512, .prompt_target_len = 512, .generated_tokens = 128,
                                            .decode_tok_s = runtime == "a" ? 40.0 + static_cast<double>(model % 13) : 50.0,
                                            .prefill_tok_s = 500.0});
    r.model_path = "models/" + r.model + ".gguf";
    r.batch = 1;
    r.command = runtime + " -m " + r.model_path;  // distinct per row: the "Commands" list grows with it
    r.status.text = "ok";
    return r;
}

// `models` models measured by runtimes a and b, one row each, in one file.
ReportData data_of(std::size_t models) {
    ReportData data;
    auto file = std::make_unique<LoadedFile>();
    file->file.generation = CsvGeneration::Perfgate;
    file->file.path = "cpu_big-host_2026-12-01.csv";
    for (const char* rt : {"a", "b"})
        for (std::size_t m = 0; m < models; ++m) file->file.rows.push_back(row_of(rt, m));
    data.files.push_back(std::move(file));
    arrange_lines(data);
    return data;
}

std::string page_of(const ReportData& data) {
    PageInputs in;
    in.data = &data;
    in.comparison = compare_runtimes(data, RuntimePair{"a", "b"}, std::nullopt, 7);
    in.reproduce_command = "perfgate report";
    return render_page(in);
}

}  // namespace

TEST_CASE("a page of 20,000 models has one line per model, each with its own ratio", "[report][bounds]") {
    const std::size_t models = 20'000;
    const auto t0 = std::chrono::steady_clock::now();
    const auto data = data_of(models);
    const auto page = page_of(data);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(data.lines.size() == models);
    CHECK(data.runtimes == std::vector<std::string>{"a", "b"});
    for (std::size_t m : {std::size_t{0}, std::size_t{12'345}, models - 1}) {
        const auto& line = data.lines[m];
        CHECK(line.model == fmt::format("synthetic-model-{:07}-Q4_0", m));
        REQUIRE(line.cells.size() == 2);
        // The ratio column of this model's row is its own a/b ratio.
        const double ratio = (40.0 + static_cast<double>(m % 13)) / 50.0;
        const auto at = page.find("| " + markdown_text(line.model) + " |");
        REQUIRE(at != std::string::npos);
        const auto row = page.substr(at, page.find('\n', at) - at);
        CHECK_THAT(row, Catch::Contains(fmt::format(" {:.3f} |", ratio)));
    }
    // Not a timing claim (the machine may be busy): a quadratic build took minutes at this size.
    std::cout << "[report] 20,000 models x 2 runtimes: lines and page in " << seconds << " s\n";
    CHECK(seconds < 60.0);
}

TEST_CASE("report page of many models", "[!benchmark][report]") {
    for (std::size_t models : {20'000u, 200'000u}) {
        BENCHMARK("arrange and render " + std::to_string(models) + " models x 2 runtimes") {
            const auto data = data_of(models);
            return page_of(data).size();
        };
    }
}
