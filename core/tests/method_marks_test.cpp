#include <catch2/catch.hpp>

#include "perfgate/core/method_marks.hpp"

using namespace perfgate;

TEST_CASE("a sweep point is named by its entry, the axis's letter and the value", "[method_marks]") {
    CHECK(sweep_point_name("llama-server", SweepAxis::concurrency, 4) == "llama-server-c4");
    CHECK(sweep_point_name("llama-bench", SweepAxis::prompt_tokens, 512) == "llama-bench-p512");
    CHECK(sweep_point_name("x", SweepAxis::generated_tokens, 64) == "x-n64");
    CHECK(sweep_point_name("x", SweepAxis::batch, 8) == "x-b8");
    for (auto axis : {SweepAxis::concurrency, SweepAxis::prompt_tokens, SweepAxis::generated_tokens, SweepAxis::batch})
        CHECK(sweep_axis_named(sweep_axis_name(axis)) == axis);
    CHECK_FALSE(sweep_axis_named("context"));
}

TEST_CASE("a sweep mark is read back from flags that hold runtime flags and other marks", "[method_marks]") {
    std::string flags = with_mark("-t 1", load_mark(16, 0.5));
    CHECK(flags == "-t 1 perfgate.load=requests:16,output-spread:0.5");
    flags = with_mark(flags, sweep_mark("llama-server", SweepAxis::concurrency));
    CHECK(flags == "-t 1 perfgate.load=requests:16,output-spread:0.5 perfgate.sweep=llama-server:concurrency");
    auto sweep = sweep_of(flags);
    REQUIRE(sweep);
    CHECK(sweep->entry == "llama-server");
    CHECK(sweep->axis == SweepAxis::concurrency);
    CHECK(with_mark("", "perfgate.x") == "perfgate.x");
    // No mark, an unknown axis, no entry: not a sweep.
    CHECK_FALSE(sweep_of("-t 1"));
    CHECK_FALSE(sweep_of("perfgate.sweep=llama-server:context"));
    CHECK_FALSE(sweep_of("perfgate.sweep=:concurrency"));
    CHECK_FALSE(sweep_of("perfgate.sweep=llama-server"));
}

TEST_CASE("a sweep's value is read from the column that holds its setting", "[method_marks]") {
    ResultRow row;
    row.batch = 4;
    row.prompt_target_len = 512;
    row.max_tokens = 64;
    CHECK(sweep_value(row, SweepAxis::concurrency) == 4);
    CHECK(sweep_value(row, SweepAxis::batch) == 4);
    CHECK(sweep_value(row, SweepAxis::prompt_tokens) == 512);
    CHECK(sweep_value(row, SweepAxis::generated_tokens) == 64);
    CHECK_FALSE(sweep_value(ResultRow{}, SweepAxis::prompt_tokens));
}
