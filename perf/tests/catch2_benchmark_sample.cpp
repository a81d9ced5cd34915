// A Catch2 BENCHMARK whose XML report (perf_tests "[!benchmark]" -r xml) is the recorded sample
// in data/recorded/catch2-benchmark.xml, and the stand-in for "any C++ project's benchmarks".
#ifndef CATCH_CONFIG_ENABLE_BENCHMARKING
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#endif
#include <catch2/catch.hpp>
#include <numeric>
#include <vector>

TEST_CASE("catch2 runtime sample", "[!benchmark]") {
    std::vector<double> values(1000);
    std::iota(values.begin(), values.end(), 1.0);
    BENCHMARK("sum of 1000 doubles") { return std::accumulate(values.begin(), values.end(), 0.0); };
}
