#include <catch2/catch.hpp>

#include "device_memory.hpp"
#include "perfgate/probes/metal_init.hpp"
#include "sysctl.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

TEST_CASE("Metal init block, 2025 format (M4)", "[probes][metal]") {
    const auto r = parse_metal_init(fixture_text("metal-init_apple-m4_ggml-ci.txt"));
    CHECK(r.device_name == "Apple M4");
    CHECK(r.gpu_family == "MTLGPUFamilyApple9");
    CHECK(r.unified_memory == true);
    CHECK(r.recommended_max_working_set_mb == Approx(11453.25));
}

TEST_CASE("Metal init, 2023 format and decimal comma", "[probes][metal]") {
    const auto r = parse_metal_init(fixture_text("metal-init_apple-m1max-32gb_llama-cpp-pr-2011.txt"));
    CHECK(r.recommended_max_working_set_mb == Approx(21845.34));
    CHECK(r.unified_memory == true);
    CHECK_FALSE(r.device_name);
    CHECK(parse_metal_init("ggml_metal_init: recommendedMaxWorkingSetSize  = 73728,00 MB\n").recommended_max_working_set_mb ==
          Approx(73728.0));
}

TEST_CASE("Metal working set: MiB in 2023 builds, 10^6 bytes in 2025 builds", "[probes][metal]") {
    CHECK(resolve_metal_working_set(11453.25, 16 * GiB) == 11453250000u);                     // M4: 2/3 of 16 GiB
    CHECK(resolve_metal_working_set(21845.34, 32 * GiB) == std::uint64_t(21845.34 * 1048576 + 0.5));  // M1 Max
    CHECK(resolve_metal_working_set(73728.0, 96 * GiB) == 72 * GiB);                            // 3/4 of 96 GiB
    CHECK_FALSE(resolve_metal_working_set(0, 16 * GiB));
}

TEST_CASE("sysctl: colon and old equals formats", "[probes][sysctl]") {
    const auto v = parse_sysctl(fixture_text("sysctl-machdep-cpu_apple-m1_py-cpuinfo-162.txt"));
    CHECK(v.at("machdep.cpu.brand_string") == "Apple M1");
    CHECK(v.at("machdep.cpu.core_count") == "8");
    CHECK(parse_sysctl("hw.memsize = 68719476736\n").at("hw.memsize") == "68719476736");
}
