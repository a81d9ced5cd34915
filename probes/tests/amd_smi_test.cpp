#include <catch2/catch.hpp>

#include "perfgate/probes/amd_smi.hpp"

using namespace perfgate::probes;

// No amd-smi capture is among the fixtures; these are the published lines quoted in
// published amd-smi 26.x output (default view on a 96 GB carve-out), as docs/probes.md describes it.
TEST_CASE("amd-smi default view: ROCm version header, name cell, carve-out usage", "[probes][amd-smi]") {
    const auto r = parse_amd_smi(
        "| AMD-SMI 26.2.1+fc0010cf6a    amdgpu version: Linuxver ROCm version: 7.2.0    |\n"
        "| 0000:c5:00.0    AMD Radeon Graphics | ...\n"
        "|   0       0     N/A             N/A | N/A        N/A            161/98304 MB |\n");
    CHECK(r.rocm_version == "7.2.0");
    CHECK(r.device_name == "AMD Radeon Graphics");
    CHECK(r.vram_total_bytes == 98304ULL * 1024 * 1024);
    CHECK_FALSE(parse_amd_smi("amdgpu version: Linuxver\n").rocm_version);
}
