#include <catch2/catch.hpp>

#include "perfgate/probes/memory_bandwidth.hpp"

using namespace perfgate::probes;

TEST_CASE("sysfs cache sizes are read with their unit", "[probes][bandwidth]") {
    CHECK(parse_cache_size("32768K\n") == 32768ull * 1024);
    CHECK(parse_cache_size("1M") == 1024ull * 1024);
    CHECK(parse_cache_size("512") == 512u);
    CHECK_FALSE(parse_cache_size("lots"));
    CHECK_FALSE(parse_cache_size("12G"));
}

TEST_CASE("the read pass measures a positive bandwidth over the requested array", "[probes][bandwidth]") {
    BandwidthOptions o;
    o.array_bytes = 4u << 20;  // small: this checks the mechanics, not the machine
    o.threads = 2;
    o.passes = 2;
    auto r = measure_memory_bandwidth(o);
    REQUIRE(r);
    CHECK(r->bytes_per_s > 0);
    CHECK(r->array_bytes == o.array_bytes);
    CHECK(r->threads == 2);
    CHECK(r->passes == 2);
    o.array_bytes = 8;  // one element for two threads
    CHECK_FALSE(measure_memory_bandwidth(o));
}
