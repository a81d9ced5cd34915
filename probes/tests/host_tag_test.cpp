#include <catch2/catch.hpp>

#include "perfgate/core/host_tag_rule.hpp"
#include "host_tag.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

namespace {
HostIdentity gpu(Backend b, std::string name, std::optional<std::string> arch = std::nullopt) {
    HostIdentity id;
    id.backend = b;
    id.device_name = std::move(name);
    id.device_arch = std::move(arch);
    return id;
}
}  // namespace

TEST_CASE("host tags for known accelerators", "[probes][host-tag]") {
    CHECK(make_host_tag(gpu(Backend::rocm, "AMD Radeon 8060S Graphics", "gfx1151")) == "strixhalo-gfx1151");
    CHECK(make_host_tag(gpu(Backend::rocm, "AMD Instinct MI300X", "gfx942")) == "amd-gfx942");
    CHECK(make_host_tag(gpu(Backend::rocm, "AMD Radeon RX 7900 XTX", "gfx1100")) == "amd-gfx1100");
    CHECK(make_host_tag(gpu(Backend::cuda, "NVIDIA H200")) == "h200");
    CHECK(make_host_tag(gpu(Backend::cuda, "NVIDIA H100 80GB HBM3")) == "h100");
    CHECK(make_host_tag(gpu(Backend::cuda, "NVIDIA GB10")) == "gb10");
    CHECK(make_host_tag(gpu(Backend::cuda, "Tesla V100-PCIE-32GB")) == "v100");
    CHECK(make_host_tag(gpu(Backend::metal, "Apple M1 Ultra")) == "m1ultra");
    CHECK(make_host_tag(gpu(Backend::metal, "Apple M5 Max")) == "m5max");
    CHECK(make_host_tag(gpu(Backend::metal, "Apple M4")) == "m4");
}

TEST_CASE("fallback tags are readable, whole words, no underscore", "[probes][host-tag]") {
    const auto rtx = make_host_tag(gpu(Backend::cuda, "NVIDIA GeForce RTX 4090"));
    CHECK(rtx == "nvidia-geforce-rtx-4090");
    HostIdentity cpu;
    cpu.cpu_model = "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz";
    CHECK(make_host_tag(cpu) == "cpu-xeon");
    cpu.cpu_model = "AMD EPYC 9474F 48-Core Processor";
    CHECK(make_host_tag(cpu) == "cpu-epyc");
    cpu.cpu_model = std::nullopt;
    CHECK(make_host_tag(cpu) == "cpu");
    const auto unknown_amd = make_host_tag(gpu(Backend::rocm, "AMD Radeon Graphics"));
    CHECK(unknown_amd == "amd-radeon-graphics");
    for (const auto& t : {rtx, unknown_amd}) CHECK(is_valid_host_tag(t));
    CHECK_FALSE(is_valid_host_tag("intel(r)_xeon(r)_cpu"));
    CHECK_FALSE(is_valid_host_tag("a_b"));
}

TEST_CASE("the chip id decides the tag, not an overridden gfx name", "[probes][host-tag]") {
    auto id = gpu(Backend::rocm, "Radeon 8060S Graphics", "gfx1151");
    id.chip_id = 0x1586;
    CHECK(make_host_tag(id) == "strixhalo-gfx1151");
}

TEST_CASE("hardware strings follow mlxcel's convention", "[probes][host-tag]") {
    auto rocm = gpu(Backend::rocm, "AMD Radeon 8060S Graphics", "gfx1151");
    rocm.rocm_version = "7.2.0";
    rocm.device_memory_bytes = 96 * GiB;
    rocm.host_memory_bytes = 31 * GiB;
    CHECK(make_hardware_string(rocm) == "AMD_Radeon_8060S_Graphics_gfx1151_ROCm7.2.0_96GB");
    auto cuda = gpu(Backend::cuda, "NVIDIA GB10");
    cuda.cuda_version = "13.0";
    cuda.host_memory_bytes = 119 * GiB;
    CHECK(make_hardware_string(cuda) == "NVIDIA_GB10_CUDA13.0_119GB");
    auto mac = gpu(Backend::metal, "Apple M1 Ultra");
    mac.cpu_model = "Apple M1 Ultra";
    mac.host_memory_bytes = 128 * GiB;
    CHECK(make_hardware_string(mac) == "Apple_M1_Ultra_128GB");
}

TEST_CASE("a device name of thousands of characters gives a valid tag, cut at a word", "[probes][host-tag][bounds]") {
    // Hardening issue, item 12: a 5,000-character tag used to be derived here and refused by
    // `perfgate run` only when the measured row was written.
    std::string name = "AMD Radeon";
    while (name.size() < 5000) name += " Pro" + std::to_string(name.size());
    for (auto backend : {Backend::rocm, Backend::vulkan, Backend::cuda, Backend::metal}) {
        const auto tag = make_host_tag(gpu(backend, name));
        INFO(tag);
        CHECK(is_valid_host_tag(tag));
        CHECK(tag.size() <= perfgate::kMaxHostTagLength);
        CHECK(tag.rfind("cpu", 0) != 0);  // cut, not dropped to the CPU fallback
    }
    HostIdentity cpu;
    cpu.cpu_model = "AMD " + std::string(5000, 'E') + " Processor";
    CHECK(is_valid_host_tag(make_host_tag(cpu)));
}
