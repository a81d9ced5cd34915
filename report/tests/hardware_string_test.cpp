#include <catch2/catch.hpp>

#include "hardware_string.hpp"

using namespace perfgate::report;

TEST_CASE("ROCm hardware string: device, gfx target, ROCm release, device memory", "[report][hardware]") {
    auto f = parse_hardware_string("AMD_Radeon_8060S_Graphics_gfx1151_ROCm10.0.0_96GB");
    CHECK(f.device == "AMD Radeon 8060S Graphics");
    CHECK(f.gpu_target == "gfx1151");
    CHECK(f.rocm_release == "10.0.0");
    REQUIRE(f.memory_gib);
    CHECK(*f.memory_gib == 96);
    CHECK(f.memory_kind == HardwareFacts::MemoryKind::device);
}

TEST_CASE("NVIDIA and Apple hardware strings carry host RAM", "[report][hardware]") {
    auto v = parse_hardware_string("NVIDIA_Tesla_V100-PCIE-32GB_CUDA12.9_755GB");
    CHECK(v.device == "NVIDIA Tesla V100-PCIE-32GB");
    CHECK(v.cuda_release == "12.9");
    CHECK(*v.memory_gib == 755);
    CHECK(v.memory_kind == HardwareFacts::MemoryKind::host);
    auto a = parse_hardware_string("Apple_M1_Ultra_128GB");
    CHECK(a.device == "Apple M1 Ultra");
    CHECK(a.gpu_target.empty());
    CHECK(a.memory_kind == HardwareFacts::MemoryKind::host);
    CHECK_FALSE(parse_hardware_string("").memory_gib);
}
