#include <catch2/catch.hpp>

#include "gate_test_support.hpp"
#include "perfgate/gates/calendar.hpp"
#include "perfgate/gates/file_name.hpp"

using namespace perfgate::gates;

TEST_CASE("every sample file name parses into series, host, harness and date", "[gates][file_name]") {
    std::size_t parsed = 0;
    for (const auto& entry : boost::filesystem::directory_iterator(testing::fixture_dir())) {
        auto name = parse_benchmark_file_name(entry.path().string());
        INFO(entry.path().filename().string());
        REQUIRE(name);
        CHECK(is_iso_date(name->date));
        CHECK(name->host.find('_') == std::string::npos);
        ++parsed;
    }
    CHECK(parsed == 8);
}

TEST_CASE("file names: runtime, host, vlm, tags, suffix and single model", "[gates][file_name]") {
    auto rocm = parse_benchmark_file_name("benchmarks/rocm_strixhalo-gfx1151_2026-09-30.csv");
    REQUIRE(rocm);
    CHECK(rocm->series == "rocm");
    CHECK(runtime_of_series(rocm->series) == "mlxcel");
    CHECK(rocm->host == "strixhalo-gfx1151");
    CHECK(rocm->harness == "text");

    auto vlm = parse_benchmark_file_name("metal_m5max_vlm_2026-09-09.csv");
    REQUIRE(vlm);
    CHECK(vlm->harness == "vlm");
    CHECK(vlm->date == "2026-09-09");

    auto single = parse_benchmark_file_name("metal_m1ultra_2026-09-08_single_gemma2-2b-4bit.csv");
    REQUIRE(single);
    CHECK(single->single_model == "gemma2-2b-4bit");
    CHECK(single->suffix.empty());

    auto hand = parse_benchmark_file_name("cuda_gb10_issue630_nvfp4_short_gs64_2026-07-08.csv");
    REQUIRE(hand);
    CHECK(hand->host == "gb10");
    CHECK(hand->tags == std::vector<std::string>{"issue630", "nvfp4", "short", "gs64"});

    auto suffixed = parse_benchmark_file_name("pylm_amd-gfx942_2026-10-02_cooldown0_single_Qwen3_odd.csv");
    REQUIRE(suffixed);
    CHECK(suffixed->series == "pylm");
    CHECK(runtime_of_series("pylm") == "pylm");
    CHECK(suffixed->suffix == "cooldown0");
    CHECK(suffixed->single_model == "Qwen3_odd");

    auto pylm_vlm_after = parse_benchmark_file_name("pylm_m5max_2026-09-06_vlm.csv");
    REQUIRE(pylm_vlm_after);
    CHECK(pylm_vlm_after->harness == "vlm");

    CHECK_FALSE(parse_benchmark_file_name("regression_check_2026-06-10x.csv"));
    CHECK_FALSE(parse_benchmark_file_name("rocm_2026-09-30.csv"));
    CHECK_FALSE(parse_benchmark_file_name("rocm_host_2026-09-30.txt"));
    CHECK_FALSE(parse_benchmark_file_name("rocm_host_2026-02-30.csv"));  // not a calendar date
}

TEST_CASE("date gaps are calendar days, also across month and year boundaries", "[gates][calendar]") {
    // mlxcel read these as YYYYMMDD integers: 20261001 - 20260930 = 71.
    CHECK(calendar_days_apart("2026-09-30", "2026-10-01") == 1);
    CHECK(calendar_days_apart("2026-12-31", "2027-01-01") == 1);
    CHECK(calendar_days_apart("2028-02-28", "2028-03-01") == 2);  // leap year
    CHECK(calendar_days_apart("2026-10-03", "2026-09-30") == 3);
    CHECK_FALSE(calendar_days_apart("2026-09-31", "2026-10-01"));
    CHECK_FALSE(calendar_days_apart("20260930", "2026-10-01"));
}
