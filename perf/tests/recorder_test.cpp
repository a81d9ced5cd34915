#include <catch2/catch.hpp>
#include <sstream>

#include "perfgate/perf/recorder.hpp"

using namespace perfgate::perf;

TEST_CASE("results file names follow <backend>_<host>_<date>[_<suffix>].csv", "[recorder]") {
    auto f = results_file("benchmarks", "rocm", "strixhalo-gfx1151", "2026-09-30", "");
    REQUIRE(f);
    CHECK(f->string() == "benchmarks/rocm_strixhalo-gfx1151_2026-09-30.csv");
    auto g = results_file("b", "cpu", "cpu-epyc", "2026-11-29", "replay");
    REQUIRE(g);
    CHECK(g->filename() == "cpu_cpu-epyc_2026-11-29_replay.csv");
}

TEST_CASE("results file names cannot leave the folder or break the name convention", "[recorder]") {
    CHECK_FALSE(results_file("b", "rocm", "a_b", "2026-09-30", ""));      // '_' splits host from date
    CHECK_FALSE(results_file("b", "rocm", "../x", "2026-09-30", ""));
    CHECK_FALSE(results_file("b", "rocm", "h", "2026-09-30", "../../etc/x"));
    CHECK_FALSE(results_file("b", "rocm", "h", "2026-09-30", "a/b"));
    CHECK_FALSE(results_file("b", "rocm", "h", "2026-09-30", ".."));
    CHECK_FALSE(results_file("b", "ro/cm", "h", "2026-09-30", ""));
    CHECK_FALSE(results_file("b", "rocm", "h", "30.09.2026", ""));
}

TEST_CASE("CTest measurements", "[recorder]") {
    perfgate::ResultRow row;
    row.decode_tok_s = 62.684;
    row.prefill_tok_s = 222.0;
    std::ostringstream out;
    print_ctest_measurements(out, row);
    CHECK_THAT(out.str(), Catch::Contains("<CTestMeasurement type=\"numeric/double\" name=\"decode_tok_s\">62.68</CTestMeasurement>\n"));
    CHECK_THAT(out.str(), Catch::Contains("name=\"prefill_tok_s\">222.00<"));
    CHECK_THAT(out.str(), !Catch::Contains("decode_ms"));  // absent values are not invented
}
