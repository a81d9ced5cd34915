// Speed of the gate (issue 6, item 10). Not run by default: gates_tests "[!benchmark]".
#include <catch2/catch.hpp>

#include <chrono>

#include "gate_test_support.hpp"
#include "perfgate/gates/gate.hpp"

using namespace perfgate::gates;
using testing::CsvText;

namespace {

// A synthetic history: `files` files of one host, `rows` models each, one day apart, in mlxcel's
// C-ROCm layout (about 200 bytes a row, as in the published files).
void write_history(const std::string& dir, int files, int rows) {
    auto csv = CsvText::parse(testing::slurp(testing::fixture("rocm_strixhalo-gfx1151_2026-09-30.csv")));
    const auto proto = csv.rows.front();
    for (int f = 0; f < files; ++f) {
        const int y = 2020 + f / 336, m = 1 + (f / 28) % 12, d = 1 + f % 28;
        const std::string date = fmt::format("{:04}-{:02}-{:02}", y, m, d);
        std::string text = testing::join_record(csv.header) + "\n";
        for (int r = 0; r < rows; ++r) {
            auto row = proto;
            row[csv.col("model")] = fmt::format("synthetic-model-{:03}-4bit", r);
            row[csv.col("model_path")] = fmt::format("models/mlx/synthetic-model-{:03}-4bit/", r);
            row[csv.col("decode_tok_s")] = fmt::format("{:.2f}", 50.0 + (r * 7 + f) % 13);
            row[csv.col("date")] = date;
            text += testing::join_record(row) + "\n";
        }
        testing::spit(fmt::format("{}/rocm_strixhalo-gfx1151_{}.csv", dir, date), text);
    }
}

}  // namespace

TEST_CASE("gate over the sample history", "[!benchmark][gates]") {
    testing::TempDir tmp;
    auto csv = CsvText::parse(testing::slurp(testing::fixture("metal_m1ultra_2026-09-06.csv")));
    csv.edit([&](auto& r) { r[csv.col("date")] = "2026-09-10"; });
    const std::string results = tmp.sub("metal_m1ultra_2026-09-10.csv");
    testing::spit(results, csv.str());
    GateOptions o;
    o.results = {results};
    o.benchmarks_dir = testing::fixture_dir();
    o.thresholds_dir = testing::thresholds_dir();
    BENCHMARK("m1ultra 199 rows against the 8 sample files") { return run_gate(o).has_value(); };

    GateOptions all;
    all.benchmarks_dir = testing::fixture_dir();
    all.thresholds_dir = testing::thresholds_dir();
    for (const auto& e : boost::filesystem::directory_iterator(testing::fixture_dir()))
        all.results.push_back(e.path().string());
    BENCHMARK("all 8 sample files as results, each against the others") { return run_gate(all).has_value(); };
}

TEST_CASE("gate over 1,000 CSVs / 200,000 rows", "[!benchmark][gates]") {
    testing::TempDir tmp;
    const std::string bench = tmp.sub("benchmarks");
    boost::filesystem::create_directories(bench);
    auto t0 = std::chrono::steady_clock::now();
    write_history(bench, 1000, 200);
    auto t1 = std::chrono::steady_clock::now();
    std::uintmax_t bytes = 0;
    for (const auto& e : boost::filesystem::directory_iterator(bench)) bytes += boost::filesystem::file_size(e.path());
    WARN(fmt::format("generated 1000 files, {:.1f} MB, in {:.2f} s", bytes / 1e6,
                     std::chrono::duration<double>(t1 - t0).count()));

    // The run: the 200 models again, dated after the whole history.
    write_history(tmp.sub("run"), 1, 200);
    const std::string run = tmp.sub("run/rocm_strixhalo-gfx1151_2030-01-01.csv");
    {
        auto rows = CsvText::parse(testing::slurp(tmp.sub("run/rocm_strixhalo-gfx1151_2020-01-01.csv")));
        rows.edit([&](auto& r) { r[rows.col("date")] = "2030-01-01"; });
        testing::spit(run, rows.str());
        boost::filesystem::remove(tmp.sub("run/rocm_strixhalo-gfx1151_2020-01-01.csv"));
    }

    GateOptions o;
    o.results = {run};
    o.benchmarks_dir = bench;
    o.thresholds_dir = testing::thresholds_dir();
    BENCHMARK("200 rows, newest baseline has them all") { return run_gate(o).has_value(); };

    // Worst case: the run has a model no file mentions, so every file's bytes are searched, and an
    // explicit old baseline makes the superseded scan parse every file in between.
    auto csv = CsvText::parse(testing::slurp(run));
    auto extra = csv.rows.front();
    extra[0] = "never-seen-before-model";
    csv.rows.push_back(extra);
    testing::spit(run, csv.str());
    BENCHMARK("201 rows, one model unknown to the history") { return run_gate(o).has_value(); };

    o.baseline = bench + "/rocm_strixhalo-gfx1151_2020-01-01.csv";
    BENCHMARK("explicit oldest baseline, superseded scan") { return run_gate(o).has_value(); };
}
