// The run's host context file (host_context.hpp): what the probe setup test writes, every pair
// reads back whole; a bad file is an error naming the file and the line of the bad value.
#include <catch2/catch.hpp>

#include "perfgate/perf/host_context.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;
using namespace perfgate::perf;

namespace {

HostContext full_context() {
    HostContext h;
    h.backend = "rocm";
    h.host = "strixhalo-gfx1151";
    h.hardware = "AMD_Radeon_8060S_Graphics_gfx1151_ROCm7.2.0_96GB";
    h.device = "AMD Radeon 8060S Graphics";
    h.device_arch = "gfx1151";
    h.device_memory_bytes = 103079215104ULL;
    h.device_memory_source = "amdgpu sysfs";
    h.uma = true;
    h.host_memory_bytes = 33285996544ULL;
    h.rocm_version = "7.2.0";
    h.hip_version = "7.2.53211";
    h.driver_version = "6.14.0";
    h.os = "Ubuntu 24.04";
    h.kernel = "6.14.0-29-generic";
    h.cpu_model = "AMD RYZEN AI MAX+ 395";
    h.machine_id = "0123456789abcdef";
    h.machine_fingerprint = "fedcba9876543210";
    h.usable_memory_bytes = 87617332838ULL;
    h.memory_is_device = true;
    h.cpu_cores = 16;
    h.date = "2026-12-02";
    h.run_id = "20261202T101500-42";
    return h;
}

}  // namespace

TEST_CASE("host context: every fact written is read back", "[perf][host]") {
    perfgate::test::TempDir dir("host-context");
    const HostContext h = full_context();
    REQUIRE(write_host_context(dir.file("host.json"), h));
    auto back = read_host_context(dir.file("host.json"));
    REQUIRE(back);
    for (const auto& field : host_record_fields())
        std::visit([&](auto member) { CHECK((*back).*member == h.*member); }, field.member);
    CHECK(back->backend == h.backend);
    CHECK(back->usable_memory_bytes == h.usable_memory_bytes);
    CHECK(back->memory_is_device);
    CHECK(back->cpu_cores == 16);
    CHECK(back->date == h.date);
    CHECK(back->run_id == h.run_id);
    CHECK(back->replay.empty());
}

TEST_CASE("host context: unknown facts are null and read as unknown", "[perf][host]") {
    perfgate::test::TempDir dir("host-context");
    HostContext h;
    h.backend = "cpu";
    h.host = "cpu-epyc";
    REQUIRE(write_host_context(dir.file("host.json"), h));
    CHECK(perfgate::test::read_file(dir.file("host.json")).find("\"uma\": null") != std::string::npos);
    auto back = read_host_context(dir.file("host.json"));
    REQUIRE(back);
    CHECK_FALSE(back->uma.has_value());
    CHECK_FALSE(back->device_memory_bytes.has_value());
    CHECK_FALSE(back->cpu_cores.has_value());
}

TEST_CASE("host context: a value of the wrong type names the file and its line", "[perf][host]") {
    perfgate::test::TempDir dir("host-context");
    const auto path = dir.file("host.json");
    perfgate::test::write_file(path, "{\n  \"backend\": \"cpu\",\n  \"host_tag\": \"cpu-epyc\",\n  \"uma\": \"yes\"\n}\n");
    auto bad = read_host_context(path);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find(path + ":4:") != std::string::npos);
    CHECK(bad.error().message.find("\"uma\" must be") != std::string::npos);

    perfgate::test::write_file(path, "{\n  \"backend\": \"cpu\",\n  \"host_memory_bytes\": -5,\n  \"host_tag\": \"cpu-epyc\"\n}\n");
    bad = read_host_context(path);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find(path + ":3:") != std::string::npos);

    perfgate::test::write_file(path, "{\n  \"backend\": \"cpu\"\n}\n");
    bad = read_host_context(path);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("missing \"host_tag\"") != std::string::npos);

    perfgate::test::write_file(path, "{\n  \"backend\": \"cpu\",\n  \"host_tag\": \"cpu_epyc\"\n}\n");
    bad = read_host_context(path);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find(path + ":3:") != std::string::npos);

    CHECK_FALSE(read_host_context(dir.file("absent.json")));
}
