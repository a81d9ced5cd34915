#include <catch2/catch.hpp>

#include <boost/filesystem.hpp>
#include <fstream>

#include "device_memory.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

TEST_CASE("UMA: a 96 GiB carve-out with 31 GiB host RAM keeps the 96 GiB figure", "[probes][memory]") {
    const auto m = choose_amd_device_memory({MemoryFigure{96 * GiB, "runtime"}, 96 * GiB, 96 * GiB, 31 * GiB, true});
    REQUIRE(m);
    CHECK(m->bytes == 96 * GiB);  // not 31 GiB, not 192 GiB (VRAM + GTT)
}

TEST_CASE("UMA: a 512 MiB carve-out beside a 128 GiB GTT uses GTT bounded by host RAM", "[probes][memory]") {
    const auto host = 128 * GiB - 512 * MiB;
    const auto m = choose_amd_device_memory({MemoryFigure{512 * MiB, "sysfs"}, 512 * MiB, 128 * GiB, host, true});
    REQUIRE(m);
    CHECK(m->bytes == host);
    const auto more_ram = choose_amd_device_memory({MemoryFigure{512 * MiB, "sysfs"}, 512 * MiB, 100 * GiB, 200 * GiB, true});
    CHECK(more_ram->bytes == 100 * GiB);
    // A runtime figure above the carve-out is what the runtime can allocate: kept.
    const auto runtime = choose_amd_device_memory({MemoryFigure{124 * GiB, "runtime"}, 512 * MiB, 128 * GiB, host, true});
    CHECK(runtime->bytes == 124 * GiB);
}

TEST_CASE("discrete AMD: the device figure stands", "[probes][memory]") {
    const auto m = choose_amd_device_memory({MemoryFigure{192 * GiB, "rocminfo"}, std::nullopt, 8 * GiB, 2048 * GiB, false});
    CHECK(m->bytes == 192 * GiB);
}

TEST_CASE("headroom and the per-host override in thresholds/", "[probes][memory]") {
    CHECK(apply_headroom(100, 0.85) == 85u);
    const auto dir = boost::filesystem::temp_directory_path() / boost::filesystem::unique_path("probes-%%%%%%");
    boost::filesystem::create_directories(dir);
    std::ofstream(dir / "h200.json") << R"({"memory_headroom": 0.9, "other": {}})";
    std::ofstream(dir / "bad.json") << R"({"memory_headroom": 1.5})";
    std::ofstream(dir / "broken.json") << "{";
    CHECK(*read_memory_headroom(dir.string(), "h200").value() == Approx(0.9));
    CHECK_FALSE(read_memory_headroom(dir.string(), "gb10").value());  // no file: no override
    CHECK_FALSE(read_memory_headroom(dir.string(), "bad").has_value());
    CHECK_FALSE(read_memory_headroom(dir.string(), "broken").has_value());
    boost::filesystem::remove_all(dir);
}
