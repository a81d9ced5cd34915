#include <catch2/catch.hpp>

#include "perfgate/probes/llama_cpp.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

TEST_CASE("llama.cpp ROCm init, new format with VRAM", "[probes][llama.cpp]") {
    const auto r = parse_llama_cpp_devices(fixture_text("llama-bench_rocm_gfx1151_kyuz0-toolboxes.txt"));
    CHECK(r.backend == "rocm");
    CHECK(r.total_vram_bytes == 126976 * MiB);
    REQUIRE(r.devices.size() == 1);
    CHECK(r.devices[0].gfx_arch == "gfx1151");
    CHECK(r.devices[0].vram_bytes == 126976 * MiB);
}

TEST_CASE("llama.cpp ROCm init, old format without VRAM", "[probes][llama.cpp]") {
    const auto r = parse_llama_cpp_devices(fixture_text("llama-bench_rocm_gfx1151_lhl-strix-halo-testing.txt"));
    CHECK(r.backend == "rocm");
    CHECK_FALSE(r.total_vram_bytes);
    REQUIRE(r.devices.size() == 1);
    CHECK(r.devices[0].name == "AMD Radeon Graphics");
    CHECK(r.devices[0].gfx_arch == "gfx1151");
    CHECK_FALSE(r.devices[0].vram_bytes);
}

TEST_CASE("llama.cpp CUDA init: GB10 and H100 compute capability", "[probes][llama.cpp]") {
    const auto gb10 = parse_llama_cpp_devices(fixture_text("llama-cpp-cuda-init_gb10_arm-learning-paths.txt"));
    CHECK(gb10.backend == "cuda");
    REQUIRE(gb10.devices.size() == 1);
    CHECK(gb10.devices[0].name == "NVIDIA GB10");
    CHECK(gb10.devices[0].compute_cap == "12.1");
    const auto h100 = parse_llama_cpp_devices(fixture_text("llama-cpp-cuda-init_h100_llama-cpp-issue-14663.txt"));
    REQUIRE(h100.devices.size() == 1);
    CHECK(h100.devices[0].compute_cap == "9.0");
}

TEST_CASE("llama.cpp Vulkan device lines: RADV tag gives the arch, AMDVLK does not", "[probes][llama.cpp]") {
    const auto text = fixture_text("llama-bench_vulkan_gfx1151_kyuz0-toolboxes.txt");
    const auto radv = parse_llama_cpp_devices(text.substr(0, text.find("AMD open-source driver")));
    CHECK(radv.backend == "vulkan");
    REQUIRE(radv.devices.size() == 1);
    CHECK(radv.devices[0].name == "AMD Radeon 8060S Graphics");
    CHECK(radv.devices[0].gfx_arch == "gfx1151");
    CHECK(radv.devices[0].uma == true);
    const auto amdvlk = parse_llama_cpp_devices(fixture_text("llama-bench_vulkan-amdvlk_gfx1151_lhl-rpc-test.txt"));
    REQUIRE(amdvlk.devices.size() == 1);
    CHECK(amdvlk.devices[0].name == "Radeon 8060S Graphics");
    CHECK_FALSE(amdvlk.devices[0].gfx_arch);
    CHECK(parse_llama_cpp_devices(fixture_text("llama-bench_vulkan_gfx1151_lhl-strix-halo-testing.txt")).devices.empty());
}

TEST_CASE("llama.cpp failure line and --list-devices", "[probes][llama.cpp]") {
    // Lines published in ggml-org/llama.cpp#20142 and the lemonade docs.
    const auto failed = parse_llama_cpp_devices("ggml_cuda_init: failed to initialize ROCm: no ROCm-capable device is detected\n");
    CHECK(failed.init_failure == "failed to initialize ROCm: no ROCm-capable device is detected");
    CHECK(failed.devices.empty());
    const auto listed = parse_llama_cpp_devices("Available devices:\n  ROCm0: AMD Radeon Graphics (120000 MiB, 124704 MiB free)\n");
    CHECK(listed.backend == "rocm");
    REQUIRE(listed.devices.size() == 1);
    CHECK(listed.devices[0].vram_bytes == 120000 * MiB);
}
