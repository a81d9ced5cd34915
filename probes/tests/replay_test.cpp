// Replays of recorded machines (tests/data/machines): the scripts on PATH print the real captured
// outputs of tests/fixtures/probe-outputs; these are replays, not live runs.
#include <catch2/catch.hpp>

#include <chrono>

#include "device_memory.hpp"
#include "host_tag.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

namespace {
struct Expected {
    const char* machine;
    const char* runtime_kind;  // nullptr: no runtime probe
    const char* runtime_tool;
    Backend backend;
    std::optional<std::string> arch;
    std::optional<std::uint64_t> memory;
    std::optional<bool> uma;
    std::string tag;
};

const std::uint64_t strix_host = 133693440ULL * 1024;  // 128 GiB less a 512 MiB carve-out

const std::vector<Expected> machines{
    {"strixhalo-64g-rocminfo", nullptr, nullptr, Backend::rocm, "gfx1151", 64 * GiB, true, "strixhalo-gfx1151"},
    {"strixhalo-override-gfx1103", nullptr, nullptr, Backend::rocm, "gfx1151", 64 * GiB, true, "strixhalo-gfx1151"},
    {"mi300x-rocminfo", nullptr, nullptr, Backend::rocm, "gfx942", 201310208ULL * 1024, false, "amd-gfx942"},
    {"mi300x-rocm-smi-only", nullptr, nullptr, Backend::rocm, "gfx942", std::nullopt, false, "amd-gfx942"},
    {"strixhalo-96g-mlxcel", "mlxcel", "mlxcel", Backend::rocm, "gfx1151", 96 * GiB, true, "strixhalo-gfx1151"},
    {"strixhalo-512m-gtt", nullptr, nullptr, Backend::rocm, "gfx1151", strix_host, true, "strixhalo-gfx1151"},
    {"strixhalo-512m-gtt-llama-rocm", "llama.cpp", "llama-bench", Backend::rocm, "gfx1151", 126976 * MiB, true, "strixhalo-gfx1151"},
    {"strixhalo-llama-rocm-old", "llama.cpp", "llama-bench", Backend::rocm, "gfx1151", strix_host, true, "strixhalo-gfx1151"},
    {"strixhalo-vulkan-radv", "llama.cpp", "llama-bench", Backend::vulkan, "gfx1151", strix_host, true, "strixhalo-gfx1151"},
    {"strixhalo-vulkan-amdvlk", "llama.cpp", "llama-bench", Backend::vulkan, std::nullopt, strix_host, true, "radeon-8060s-graphics"},
    {"strixhalo-vulkan-no-device-line", "llama.cpp", "llama-bench", Backend::cpu, std::nullopt, strix_host, std::nullopt, "cpu"},
    {"h100x8", "llama.cpp", "llama-bench", Backend::cuda, "sm_90", 81559 * MiB, false, "h100"},
    {"h200", nullptr, nullptr, Backend::cuda, "sm_90", 143771 * MiB, false, "h200"},
    {"gb10", nullptr, nullptr, Backend::cuda, std::nullopt, 127611300ULL * 1024, true, "gb10"},
    {"gb10-llama", "llama.cpp", "llama-bench", Backend::cuda, "sm_121", 127611300ULL * 1024, true, "gb10"},
    {"apple-m4-metal", "llama.cpp", "llama-bench", Backend::metal, std::nullopt, 11453250000ULL, true, "m4"},
    {"apple-m1max-32g-metal", "llama.cpp", "llama-bench", Backend::metal, std::nullopt, 22906499236ULL, true, "m1max"},
    {"apple-m1-sysctl", nullptr, nullptr, Backend::metal, std::nullopt, std::nullopt, true, "m1"},
    {"apple-m1max-64g-mlxcel", "mlxcel", "mlxcel", Backend::metal, std::nullopt, 48 * GiB, true, "m1max"},
};

HostFacts replay(const Expected& e) {
    if (!e.runtime_kind) return probe_machine(e.machine);
    return probe_machine(e.machine, std::string(e.runtime_kind), std::string(e.runtime_tool));
}

bool has_warning(const HostFacts& f, const std::string& needle) {
    for (const auto& w : f.warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}
}  // namespace

TEST_CASE("replay every recorded machine: backend, arch, memory, uma, host tag", "[probes][replay]") {
    for (const auto& e : machines) {
        INFO("machine " << e.machine);
        const auto f = replay(e);
        CAPTURE(to_json(f).dump(2));
        CHECK(to_string(f.backend) == std::string(to_string(e.backend)));
        CHECK(f.device_arch == e.arch);
        CHECK(f.device_memory_bytes == e.memory);
        CHECK(f.uma == e.uma);
        CHECK(f.host_tag == e.tag);
        CHECK(is_valid_host_tag(f.host_tag));
        CHECK(f.hardware.find(' ') == std::string::npos);
        if (f.device_memory_bytes) CHECK(f.usable_memory_bytes == apply_headroom(*f.device_memory_bytes, 0.85));
        else CHECK_FALSE(f.usable_memory_bytes);
    }
}

TEST_CASE("Strix Halo, 96 GiB carve-out, 31 GiB host RAM: budget from the 96 GiB figure", "[probes][replay][acceptance]") {
    const auto f = probe_machine("strixhalo-96g-mlxcel", std::string("mlxcel"), std::string("mlxcel"));
    CHECK(f.backend_source == "runtime:mlxcel");
    CHECK(f.host_memory_bytes == 32484672ULL * 1024);
    CHECK(f.device_memory_bytes == 96 * GiB);
    CHECK(f.usable_memory_bytes == apply_headroom(96 * GiB, 0.85));
    CHECK(*f.usable_memory_bytes > *f.host_memory_bytes);
    CHECK(f.device_name == "AMD Radeon 8060S Graphics");
    CHECK(f.device_chip_id == "0x1586");
    CHECK(f.hardware == "AMD_Radeon_8060S_Graphics_gfx1151_96GB");
    CHECK(f.kernel == "6.18.12+deb13-amd64");
}

TEST_CASE("Strix Halo, 512 MiB carve-out, 128 GiB GTT: not 0.5 GiB", "[probes][replay][acceptance]") {
    const auto f = probe_machine("strixhalo-512m-gtt");
    CHECK(f.backend_source == "rocm-smi");
    CHECK(f.vram_bytes == 512 * MiB);
    CHECK(f.gtt_bytes == 128 * GiB);
    CHECK(f.device_memory_bytes == strix_host);  // GTT, bounded by host RAM; never VRAM + GTT
    CHECK(f.driver_version == "6.14.14");
    CHECK(has_warning(f, "rocminfo listed no GPU agent"));
}

TEST_CASE("GB10: unified host memory, not 0 bytes", "[probes][replay][acceptance]") {
    const auto f = probe_machine("gb10");
    REQUIRE(f.device_memory_bytes);
    CHECK(*f.device_memory_bytes > 100 * GiB);
    CHECK(f.device_memory_source->find("host MemTotal") != std::string::npos);
    CHECK(f.driver_version == "580.95.05");
    CHECK(f.cuda_version == "13.0");
    CHECK(has_warning(f, "nvidia-smi exited with code 2"));  // the csv query was not recorded
}

TEST_CASE("versions: CUDA and driver from nvidia-smi, HSA runtime is not ROCm", "[probes][replay]") {
    const auto h200 = probe_machine("h200");
    CHECK(h200.driver_version == "580.159.04");
    CHECK(h200.cuda_version == "13.0");
    CHECK(h200.device_name == "NVIDIA H200");
    const auto strix = probe_machine("strixhalo-64g-rocminfo");
    CHECK(strix.hsa_runtime_version == "1.18");
    CHECK_FALSE(strix.rocm_version);
    CHECK(strix.cpu_model == "AMD RYZEN AI MAX+ 395 w/ Radeon 8060S");
    CHECK(strix.device_name == "Radeon 8060S Graphics");
}

TEST_CASE("an overridden gfx name does not change the host tag, it is recorded and warned", "[probes][replay]") {
    ::setenv("HSA_OVERRIDE_GFX_VERSION", "11.0.3", 1);
    const auto f = probe_machine("strixhalo-override-gfx1103");
    ::unsetenv("HSA_OVERRIDE_GFX_VERSION");
    CHECK(f.device_arch == "gfx1151");
    CHECK(f.reported_arch == "gfx1103");
    CHECK(f.host_tag == "strixhalo-gfx1151");
    CHECK(has_warning(f, "HSA_OVERRIDE_GFX_VERSION=11.0.3"));
}

TEST_CASE("hanging tools are killed at 2 s each and become warnings", "[probes][tolerance]") {
    const auto start = std::chrono::steady_clock::now();
    const auto f = probe_machine("stub-hang");
    const auto elapsed = std::chrono::steady_clock::now() - start;
    CHECK(f.backend == Backend::cpu);
    CHECK(has_warning(f, "rocminfo: killed after 2000 ms"));
    CHECK(has_warning(f, "nvidia-smi: killed after 2000 ms"));
    CHECK(elapsed < std::chrono::milliseconds(6000));  // two tools, 2 s each, not 2 x 10 s
}

TEST_CASE("garbage, colour codes and failing exits become warnings", "[probes][tolerance]") {
    const auto f = probe_machine("stub-garbage");
    CHECK(f.backend == Backend::cpu);
    CHECK(has_warning(f, "rocminfo listed no GPU agent"));
    CHECK(has_warning(f, "nvidia-smi exited with code 3"));
    CHECK(f.device_memory_bytes == 24683620ULL * 1024);
}

TEST_CASE("a runtime that cannot be started is a warning, system tools still decide", "[probes][tolerance]") {
    auto o = machine_options("h200");
    o.runtime_kind = "mlxcel";
    o.runtime_query = RuntimeQuery::mlxcel_generate;
    o.runtime_binary = "/nonexistent/mlxcel";
    const auto f = probe_host(o);
    CHECK(f.backend == Backend::cuda);
    CHECK(f.backend_source == "nvidia-smi");
    CHECK(has_warning(f, "runtime probe"));
}

TEST_CASE("JSON carries every documented key, unknown facts are null", "[probes][json]") {
    const auto j = to_json(probe_machine("apple-m1-sysctl"));
    for (const char* key : {"backend", "backend_source", "host_tag", "hardware", "device_name", "device_arch", "device_chip_id",
                            "device_memory_bytes", "device_memory_source", "usable_memory_bytes", "uma", "rocm_version",
                            "hip_version", "cuda_version", "driver_version", "os", "kernel", "cpu_model",
                            "host_memory_bytes", "warnings"})
        CHECK(j.contains(key));
    CHECK(j["backend"] == "metal");
    CHECK(j["device_memory_bytes"].is_null());  // hw.memsize was not recorded
    CHECK(j["host_memory_bytes"].is_null());
    CHECK(j["device_arch"].is_null());
    CHECK(j["warnings"].is_array());
}

TEST_CASE("this machine (live, CPU-only CI): backend cpu, a readable tag", "[probes][live]") {
    ProbeOptions o;
    o.search_path = "";  // no vendor tools: what the CPU-only CI machine has
    o.thresholds_dir = "";
    const auto f = probe_host(o);
    CHECK(f.backend == Backend::cpu);
    CHECK(is_valid_host_tag(f.host_tag));
    CHECK(f.host_tag.rfind("cpu", 0) == 0);
    REQUIRE(f.host_memory_bytes);
    CHECK(f.device_memory_bytes == f.host_memory_bytes);
}
