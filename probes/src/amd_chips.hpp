#pragma once
// Known AMD chip ids. The chip id survives HSA_OVERRIDE_GFX_VERSION, the gfx name does not.
#include <cstdint>
#include <optional>
#include <string>

namespace perfgate::probes {

struct AmdChip {
    std::uint32_t chip_id;
    const char* gfx_arch;
    const char* family_tag;  // short host-tag prefix, "strixhalo"; empty: use "amd"
    bool apu;
};

std::optional<AmdChip> lookup_amd_chip(std::uint32_t chip_id);
std::string format_chip_id(std::uint32_t chip_id);  // "0x1586"

}  // namespace perfgate::probes
