#include <catch2/catch.hpp>

#include "perfgate/report/spread.hpp"

using perfgate::report::spread_of;

TEST_CASE("spread of readings: median, interpolated quartiles, range", "[report][spread]") {
    auto s = spread_of({4.0, 1.0, 3.0, 2.0});
    REQUIRE(s);
    CHECK(s->n == 4);
    CHECK(s->min == 1.0);
    CHECK(s->max == 4.0);
    CHECK(s->median == Approx(2.5));
    CHECK(s->q1 == Approx(1.75));
    CHECK(s->q3 == Approx(3.25));

    auto five = spread_of({10, 20, 30, 40, 50});
    CHECK(five->q1 == Approx(20));
    CHECK(five->median == Approx(30));
    CHECK(five->q3 == Approx(40));
}

TEST_CASE("spread of one reading collapses, no readings is nothing", "[report][spread]") {
    auto s = spread_of({7.5});
    REQUIRE(s);
    CHECK(s->min == 7.5);
    CHECK(s->q1 == 7.5);
    CHECK(s->q3 == 7.5);
    CHECK(s->max == 7.5);
    CHECK_FALSE(spread_of({}));
}
