// Acceptance: the gfx1151 baseline page from mlxcel's two sample CSVs (mlxcel and the mlx-lm
// reference, same host and day). Every number on the page is read back and checked against the CSVs.
#include <algorithm>

#include <catch2/catch.hpp>
#include <boost/filesystem.hpp>

#include "perfgate/core/csv.hpp"
#include "escape.hpp"
#include "perfgate/report/make_report.hpp"
#include "report_test_support.hpp"

using namespace perfgate;
using namespace perfgate::report;

namespace {

const char* rocm_csv = "rocm_strixhalo-gfx1151_2026-09-30.csv";
const char* pylm_csv = "pylm_strixhalo-gfx1151_2026-09-30.csv";

std::string env_value(const testing::Table& env, const std::string& label) {
    const auto* r = env.row(markdown_text(label));
    return r && r->size() > 1 ? (*r)[1] : std::string("<missing row>");
}

double median_by_hand(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

TEST_CASE("gfx1151 page: both runtimes side by side, numbers equal the CSVs", "[report][acceptance]") {
    testing::TempDir dir;
    ReportOptions o;
    o.results = {testing::fixture(rocm_csv), testing::fixture(pylm_csv)};
    o.output = dir.file("benchmark_results/rocm_strixhalo-gfx1151_2026-09-30.md");
    o.thresholds_dir = dir.file("no-thresholds");
    o.note = "other GPU tenants stopped by hand";
    o.command_line = "perfgate report --results a.csv --results b.csv --output x.md";
    o.charts.enabled = false;
    auto outcome = make_report(o);
    REQUIRE(outcome);
    CHECK(outcome->relative_gate == RelativeGate::none);
    const auto page = testing::read_text(o.output);

    for (const char* s : {"Environment", "Method", "Results", "Comparison", "Charts", "How to reproduce"})
        CHECK_FALSE(testing::section(page, s).empty());
    CHECK(page.find("imported from mlxcel CSV") != std::string::npos);
    CHECK(page.find("Charts not drawn: charts were turned off") != std::string::npos);

    const auto results = testing::first_table(testing::section(page, "Results"));
    const auto a_decode = results.column("mlxcel decode tok/s");
    const auto b_decode = results.column("mlx-lm decode tok/s");
    const auto a_prefill = results.column("mlxcel prefill tok/s");
    const auto b_prefill = results.column("mlx-lm prefill tok/s");
    const auto ratio_col = results.column("decode mlxcel/mlx-lm");
    const auto pre_ratio_col = results.column("prefill mlxcel/mlx-lm");
    REQUIRE(a_decode);
    REQUIRE(b_decode);
    REQUIRE(a_prefill);
    REQUIRE(b_prefill);
    REQUIRE(ratio_col);
    REQUIRE(pre_ratio_col);

    auto rocm = read_results_csv(testing::fixture(rocm_csv));
    auto pylm = read_results_csv(testing::fixture(pylm_csv));
    REQUIRE(rocm);
    REQUIRE(pylm);
    REQUIRE(results.rows.size() == rocm->rows.size());
    std::vector<double> ratios;
    for (const auto& a : rocm->rows) {
        const auto b = std::find_if(pylm->rows.begin(), pylm->rows.end(), [&](const ResultRow& r) { return r.model == a.model; });
        REQUIRE(b != pylm->rows.end());
        const auto* line = results.row(markdown_text(a.model));
        INFO(a.model);
        REQUIRE(line != nullptr);
        CHECK(testing::leading_number(line->at(*a_decode)).value() == Approx(*a.decode_tok_s).margin(0.005));
        CHECK(testing::leading_number(line->at(*b_decode)).value() == Approx(*b->decode_tok_s).margin(0.005));
        CHECK(testing::leading_number(line->at(*a_prefill)).value() == Approx(*a.prefill_tok_s).margin(0.005));
        CHECK(testing::leading_number(line->at(*b_prefill)).value() == Approx(*b->prefill_tok_s).margin(0.005));
        const double ratio = *a.decode_tok_s / *b->decode_tok_s;
        CHECK(testing::leading_number(line->at(*ratio_col)).value() == Approx(ratio).margin(0.0005));
        CHECK(testing::leading_number(line->at(*pre_ratio_col)).value() ==
              Approx(*a.prefill_tok_s / *b->prefill_tok_s).margin(0.0005));
        ratios.push_back(ratio);
        CHECK(line->at(1).find("imported from mlxcel CSV") != std::string::npos);
        // Size is not in these CSVs.
        CHECK(line->at(3) == "not recorded");
    }
    // Without a bandwidth there is no efficiency column, and one sentence says why.
    CHECK_FALSE(results.column("Decode efficiency (share of memory bandwidth)"));
    CHECK(testing::section(page, "Results").find("Decode efficiency is not computed") != std::string::npos);

    // Comparison summary: the median ratio equals the median of the CSV ratios.
    const auto cmp = testing::section(page, "Comparison");
    const auto pos = cmp.find("median ratio ");
    REQUIRE(pos != std::string::npos);
    CHECK(testing::leading_number(cmp.substr(pos + 13)).value() == Approx(median_by_hand(ratios)).margin(0.0005));
    CHECK(cmp.find("5 models") != std::string::npos);

    // Environment: every field the CSVs allow, the rest "not recorded".
    const auto env = testing::first_table(testing::section(page, "Environment"));
    CHECK(env_value(env, "Host tag") == "strixhalo-gfx1151");
    CHECK(env_value(env, "Backend") == "rocm");
    CHECK(env_value(env, "Device") == "AMD Radeon 8060S Graphics");
    CHECK(env_value(env, "GPU target (gfx / sm)") == "gfx1151");
    CHECK(env_value(env, "Device memory (UMA: the carve-out)") == "96 GiB");
    CHECK(env_value(env, "ROCm release") == "10.0.0");
    CHECK(env_value(env, "HIP version") == "7.15.26333");
    CHECK(env_value(env, "mlxcel version (as recorded)") == "0.7.0");
    CHECK(env_value(env, "mlxcel commit") == "2fcdbe5f");
    CHECK(env_value(env, "mlxcel upstream pin") == "81ba1c6a");
    CHECK(env_value(env, "mlxcel overlay commit") == "75915908");
    CHECK(env_value(env, "mlx-lm version (as recorded)") == markdown_text("mlx-lm-0.31.3+mlx-0.32.3.dev20260912+a7d4c85a"));
    CHECK(env_value(env, "mlx-lm build type") == "python");
    CHECK(env_value(env, "Operator note") == markdown_text(o.note));
    for (const char* missing : {"OS", "Kernel", "Host RAM (what the OS sees)", "Unified memory", "CPU", "mlxcel compiler",
                                "mlx-lm commit", "Contention (other GPU processes during the run)"})
        CHECK(env_value(env, missing) == "not recorded");

    // Method: lengths and the imported files' provenance.
    const auto method = testing::section(page, "Method");
    CHECK(method.find("- **Prompt length requested (tokens):** 512") != std::string::npos);
    CHECK(method.find("- **Decode length requested (max tokens):** 128") != std::string::npos);
    CHECK(method.find("- **Warmup runs:** not recorded") != std::string::npos);
    CHECK(method.find("imported from mlxcel CSV (generation C-ROCm") != std::string::npos);
    CHECK(method.find("imported from mlxcel CSV (generation P (pylm") != std::string::npos);
}

TEST_CASE("gfx1151 relative gate: mlxcel >= 0.95 x mlx-lm fails on Mixtral", "[report][acceptance]") {
    testing::TempDir dir;
    ReportOptions o;
    o.results = {testing::fixture(rocm_csv), testing::fixture(pylm_csv)};
    o.output = dir.file("page.md");
    o.charts.enabled = false;
    o.compare = "mlxcel:mlx-lm";
    o.min_ratio = 0.95;
    auto failed = make_report(o);
    REQUIRE(failed);
    CHECK(failed->relative_gate == RelativeGate::failed);
    CHECK(failed->summary.find("BELOW GATE: Mixtral-8x7B-Instruct-v0.1-4bit") != std::string::npos);
    CHECK(failed->summary.find("Qwen3") == std::string::npos);
    CHECK(testing::read_text(o.output).find("**FAILED**") != std::string::npos);

    o.min_ratio = 0.75;  // Mixtral is 7.65 / 9.98 = 0.767
    auto passed = make_report(o);
    REQUIRE(passed);
    CHECK(passed->relative_gate == RelativeGate::passed);
    CHECK(testing::read_text(o.output).find("**PASSED**") != std::string::npos);

    o.compare = "mlxcel:llama-bench";
    auto unknown = make_report(o);
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().message.find("llama-bench") != std::string::npos);
}
