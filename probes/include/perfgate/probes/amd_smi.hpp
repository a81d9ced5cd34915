#pragma once
// Parser for the default `amd-smi` view (box-drawn table, 26.x).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace perfgate::probes {

struct AmdSmiReport {
    std::optional<std::string> rocm_version;  // header "ROCm version: 7.2.0" (the only ROCm release amd-smi states)
    std::optional<std::string> device_name;   // "AMD Radeon Graphics" from "| 0000:c5:00.0    AMD Radeon Graphics |"
    std::optional<std::uint64_t> vram_total_bytes;  // "161/98304 MB": the carve-out only
};

AmdSmiReport parse_amd_smi(std::string_view text);

}  // namespace perfgate::probes
