#include <catch2/catch.hpp>

#include "perfgate/probes/rocminfo.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

TEST_CASE("rocminfo on Strix Halo: the GPU agent, not the CPU or the NPU", "[probes][rocminfo]") {
    const auto r = parse_rocminfo(fixture_text("rocminfo_gfx1151_danbev-learning-ai.txt"));
    REQUIRE(r.agents.size() == 3);
    CHECK(r.agents[0].device_type == "CPU");
    CHECK(r.agents[2].device_type == "DSP");
    CHECK(r.hsa_runtime_version == "1.18");
    CHECK(r.complete);
    const auto gpus = r.gpus();
    REQUIRE(gpus.size() == 1);
    CHECK(gpus[0].name == "gfx1151");
    CHECK(gpus[0].marketing_name == "Radeon 8060S Graphics");
    CHECK(gpus[0].chip_id == 0x1586u);
    CHECK(gpus[0].compute_units == 40u);
    CHECK(gpus[0].apu == true);
    CHECK(gpus[0].largest_global_pool_bytes == 67108864ULL * 1024);  // not the 64 KB GROUP pool
}

TEST_CASE("rocminfo on MI300X: two CPU agents, four padded GPU agents", "[probes][rocminfo]") {
    const auto r = parse_rocminfo(fixture_text("rocminfo_gfx942_mi300x_thamada-nvidia-smi.txt"));
    CHECK(r.hsa_runtime_version == "1.1");
    const auto gpus = r.gpus();
    REQUIRE(gpus.size() == 4);
    CHECK(r.agents[0].device_type == "CPU");
    CHECK(r.agents[1].device_type == "CPU");
    CHECK(gpus[0].name == "gfx942");
    CHECK(gpus[0].marketing_name == "AMD Instinct MI300X");
    CHECK(gpus[0].chip_id == 0x74a1u);
    CHECK_FALSE(gpus[0].apu.has_value());  // no Memory Properties line in this sample
    CHECK(gpus[0].largest_global_pool_bytes == 201310208ULL * 1024);
}

TEST_CASE("rocminfo: module version line, colour codes, truncated output", "[probes][rocminfo]") {
    const auto r = parse_rocminfo("ESC[37mROCk module version 6.14.14 is loadedESC[0m\n");
    CHECK(r.kernel_module_version == "6.14.14");
    CHECK(r.gpus().empty());
    CHECK_FALSE(r.complete);
    CHECK(parse_rocminfo("\x1b[1m@@@\nAgent\n  Name: ::::\n").agents.empty());
}
