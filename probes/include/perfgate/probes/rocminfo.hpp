#pragma once
// Parser for `rocminfo` output (HSA agents and their memory pools).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::probes {

struct RocmAgent {
    std::string name;            // "gfx1151" for a GPU, the CPU brand for a CPU
    std::string marketing_name;  // "Radeon 8060S Graphics"
    std::string vendor;          // "AMD", "CPU"
    std::string device_type;     // "CPU", "GPU", "DSP" (the NPU)
    std::optional<std::uint32_t> chip_id;          // 0x1586
    std::optional<std::uint32_t> compute_units;
    std::optional<bool> apu;  // "Memory Properties: APU"; nullopt when the line is absent (MI300X sample)
    std::optional<std::uint64_t> largest_global_pool_bytes;  // largest GLOBAL segment pool
};

struct RocminfoReport {
    std::optional<std::string> kernel_module_version;  // "ROCk module version 6.14.14 is loaded"
    std::optional<std::string> hsa_runtime_version;    // "Runtime Version: 1.18" (HSA, not ROCm)
    std::vector<RocmAgent> agents;
    bool complete = false;  // saw "*** Done ***"

    // GPU agents only (the CPU is agent 1, an NPU is Device Type DSP).
    std::vector<RocmAgent> gpus() const;
};

RocminfoReport parse_rocminfo(std::string_view text);

}  // namespace perfgate::probes
