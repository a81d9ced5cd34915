#include <catch2/catch.hpp>

#include "perfgate/probes/host_facts.hpp"
#include "perfgate/probes/mlxcel.hpp"
#include "perfgate/probes/observations.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

TEST_CASE("mlxcel ROCm probe output", "[probes][mlxcel]") {
    const auto r = parse_mlxcel_backend(fixture_text("mlxcel-generate_rocm_gfx1151.txt"));
    CHECK(r.backend == "rocm");
    CHECK(r.hip_arch == "gfx1151");
    CHECK(r.compiled_for == std::vector<std::string>{"gfx1151"});
    CHECK(r.device_name == "AMD Radeon 8060S Graphics");
    CHECK(r.device_vendor == "Amd");
    CHECK(r.device_memory_bytes == 96 * GiB);
    CHECK(r.runtime_device == "GPU");
}

TEST_CASE("mlxcel variants: backend suffix, no memory clause, Metal", "[probes][mlxcel]") {
    const auto r = parse_mlxcel_backend(
        "[mlxcel] custom kernel backend: rocm (not every kernel family is ported; the rest use MLX graph fallbacks)\n"
        "GPU: Foo Bar (Amd).\n");
    CHECK(r.backend == "rocm");
    CHECK(r.device_name == "Foo Bar");
    CHECK_FALSE(r.device_memory_bytes);
    const auto metal = parse_mlxcel_backend(fixture_text("mlxcel-generate_m1max_kubesimplify-blog.txt"));
    CHECK_FALSE(metal.backend);
    CHECK(metal.runtime_device == "Apple GPU (Metal)");
}

TEST_CASE("mlxcel's backend line: perfgate's names, HIP's name for rocm, anything else a warning",
          "[probes][mlxcel][backend]") {
    const auto decided = [](const std::string& backend) {
        Observations obs;
        obs.runtime = RuntimeReport{"mlxcel", MlxcelBackendReport{}, std::nullopt, std::nullopt};
        obs.runtime->mlxcel->backend = backend;
        return decide_host_facts(obs, HeadroomChoice{});
    };
    const auto hip = decided("hip");
    CHECK(hip.backend == Backend::rocm);
    CHECK(hip.backend_source == "runtime:mlxcel");
    CHECK(decided("vulkan").backend == Backend::vulkan);
    const auto other = decided("ROCm");  // not a name perfgate or HIP writes
    CHECK(other.backend == Backend::cpu);
    bool warned = false;
    for (const auto& w : other.warnings) warned = warned || w.find("unknown backend 'ROCm'") != std::string::npos;
    CHECK(warned);
}
