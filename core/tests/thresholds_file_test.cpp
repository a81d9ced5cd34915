#include <catch2/catch.hpp>

#include <fstream>

#include "perfgate/core/thresholds_file.hpp"
#include "test_support.hpp"

using namespace perfgate;

TEST_CASE("a thresholds file is named by a valid host tag only", "[thresholds_file]") {
    CHECK(thresholds_file_name("default", "x").value() == "default.json");
    CHECK(thresholds_file_name("strixhalo-gfx1151", "x").value() == "strixhalo-gfx1151.json");
    auto escape = thresholds_file_name("../../etc/passwd", "--host");
    REQUIRE_FALSE(escape);
    CHECK_THAT(escape.error().message, Catch::Contains("--host") && Catch::Contains("not a valid host tag"));
}

TEST_CASE("the host's thresholds file is read and parsed once, with file:line errors", "[thresholds_file]") {
    const auto dir = test::temp_dir("thresholds-file");
    std::ofstream(dir / "h200.json") << "{\n  \"metrics\": {},\n  \"memory_headroom\": 0.9\n}\n";
    std::ofstream(dir / "bad.json") << "{\n  \"memory_headroom\": 1.5\n}\n";
    std::ofstream(dir / "broken.json") << "{\n  \"metrics\": {\n";
    std::ofstream(dir / "list.json") << "[1]";
    std::filesystem::create_directories(dir / "folder.json");

    auto h200 = read_thresholds_json(dir.string(), "h200");
    REQUIRE(h200);
    REQUIRE(*h200);
    CHECK((*h200)->where("/memory_headroom") == (dir / "h200.json").string() + ":3");
    CHECK(memory_headroom_of(**h200).value() == Approx(0.9));

    auto missing = read_thresholds_json(dir.string(), "gb10");
    REQUIRE(missing);
    CHECK_FALSE(*missing);

    auto bad = read_thresholds_json(dir.string(), "bad");
    REQUIRE(bad);
    auto headroom = memory_headroom_of(**bad);
    REQUIRE_FALSE(headroom);
    CHECK_THAT(headroom.error().message, Catch::EndsWith("bad.json:2: \"memory_headroom\" = 1.5 is outside (0, 1]"));

    auto list = read_thresholds_json(dir.string(), "list");
    REQUIRE(list);
    CHECK_FALSE(memory_headroom_of(**list));

    auto broken = read_thresholds_json(dir.string(), "broken");
    REQUIRE_FALSE(broken);
    CHECK_THAT(broken.error().message, Catch::Contains("broken.json:3: invalid JSON"));
    CHECK_FALSE(read_thresholds_json(dir.string(), "folder"));
    CHECK_FALSE(read_thresholds_json(dir.string(), "no/such"));
    std::filesystem::remove_all(dir);
}
