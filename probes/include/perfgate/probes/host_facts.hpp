#pragma once
// What `perfgate probe` reports about a host. Unknown facts are nullopt (null in JSON), never guesses.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/backend.hpp"

namespace perfgate::probes {

using perfgate::Backend;  // the list, its names and parsing live in core

struct HostFacts {
    Backend backend = Backend::cpu;
    std::string backend_source;  // "runtime:mlxcel", "rocminfo", "nvidia-smi", "sysctl", "default"
    std::string host_tag;        // "strixhalo-gfx1151", "h200", "cpu-epyc": never contains '_'
    std::string hardware;        // mlxcel's full string, "AMD_Radeon_8060S_Graphics_gfx1151_ROCm7.2.0_96GB"
    std::optional<std::string> device_name;
    std::optional<std::string> device_arch;      // the real architecture: "gfx1151", "sm_90"
    std::optional<std::string> reported_arch;    // what the stack reported, when it differs (override)
    std::optional<std::string> device_chip_id;   // "0x1586"
    std::optional<std::uint64_t> device_memory_bytes;
    std::optional<std::string> device_memory_source;
    std::optional<std::uint64_t> usable_memory_bytes;  // device bytes x headroom_factor
    double headroom_factor = 0.85;
    std::string headroom_source = "default";
    std::optional<bool> uma;
    std::optional<std::uint64_t> vram_bytes;  // carve-out / dedicated VRAM (sysfs, rocm-smi)
    std::optional<std::uint64_t> gtt_bytes;   // GTT limit (sysfs mem_info_gtt_total)
    std::optional<std::string> rocm_version;
    std::optional<std::string> hip_version;
    std::optional<std::string> hsa_runtime_version;  // rocminfo "Runtime Version": not the ROCm release
    std::optional<std::string> cuda_version;
    std::optional<std::string> driver_version;
    std::optional<std::string> os;
    std::optional<std::string> kernel;
    std::optional<std::string> cpu_model;
    std::optional<std::uint64_t> host_memory_bytes;
    // Which machine this is and what decides its speed (machine_identity.hpp): keyed hashes only.
    std::optional<std::string> machine_id;         // nullopt when no id source could be read
    std::vector<std::string> machine_id_sources;   // the sources' names ("etc/machine-id"), never values
    std::string machine_fingerprint;
    std::vector<std::string> warnings;
};

}  // namespace perfgate::probes
