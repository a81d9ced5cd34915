#include <catch2/catch.hpp>

#include "perfgate/gates/host_thresholds.hpp"
#include "roofline.hpp"
#include "report_test_support.hpp"

using namespace perfgate::report;

namespace {

// The report's bandwidth is the host file's, as the gate's one reader of thresholds/ returns it.
perfgate::Expected<std::optional<Bandwidth>> read_memory_bandwidth(const std::filesystem::path& dir, const std::string& host) {
    auto thresholds = perfgate::gates::load_host_thresholds(dir.string(), host);
    if (!thresholds) return thresholds.error();
    return thresholds->memory_bandwidth;
}

}  // namespace

TEST_CASE("memory bandwidth is read from thresholds/<host>.json", "[report][roofline]") {
    testing::TempDir dir;
    testing::write_text(dir.file("host-a.json"), "{\"metrics\": {\"decode_tok_s\": {\"max_drop\": 0.05}},\n"
                                             " \"memory_bandwidth\": {\"bytes_per_s\": 256e9, \"source\": \"triad\",\n"
                                             "                      \"date\": \"2026-12-01\"}}");
    auto bw = read_memory_bandwidth(dir.path, "host-a");
    REQUIRE(bw);
    REQUIRE(*bw);
    CHECK((*bw)->bytes_per_s == Approx(256e9));
    CHECK((*bw)->source == "triad");
    CHECK((*bw)->date == "2026-12-01");
    CHECK((*bw)->where.find("host-a.json:2") != std::string::npos);
    // 4 GiB of weights at 30 tok/s on 256 GB/s
    auto eff = decode_efficiency(4ull << 30, 30.0, *bw);
    REQUIRE(eff);
    CHECK(*eff == Approx(4.0 * 1073741824.0 * 30.0 / 256e9));
}

TEST_CASE("unknown bandwidth is not an error but a broken file is one naming its line", "[report][roofline]") {
    testing::TempDir dir;
    auto missing = read_memory_bandwidth(dir.path, "nohost");
    REQUIRE(missing);
    CHECK_FALSE(*missing);
    testing::write_text(dir.file("nokey.json"), R"({"metrics": {}})");
    auto nokey = read_memory_bandwidth(dir.path, "nokey");
    REQUIRE(nokey);
    CHECK_FALSE(*nokey);
    CHECK_FALSE(decode_efficiency(100, 1.0, std::nullopt));
    testing::write_text(dir.file("bad.json"), "{not json");
    auto bad = read_memory_bandwidth(dir.path, "bad");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("bad.json:1") != std::string::npos);
    testing::write_text(dir.file("str.json"), "{\n \"memory_bandwidth\": {\"bytes_per_s\": \"fast\", \"source\": \"x\", \"date\": \"2026-12-01\"}}");
    auto str = read_memory_bandwidth(dir.path, "str");
    REQUIRE_FALSE(str);
    CHECK(str.error().message.find("str.json:2") != std::string::npos);
    // The old flat key is not a thresholds key: the gate would refuse the file, so the report does too.
    testing::write_text(dir.file("flat.json"), R"({"memory_bandwidth_bytes_per_s": 256e9})");
    CHECK_FALSE(read_memory_bandwidth(dir.path, "flat"));
}
