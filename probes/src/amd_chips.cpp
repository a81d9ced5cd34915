#include "amd_chips.hpp"

#include <array>

#include <fmt/format.h>

namespace perfgate::probes {

namespace {
// Only ids confirmed by the recorded outputs in tests/fixtures/probe-outputs:
// rocminfo "Chip ID: 5510(0x1586)" with gfx1151 (Strix Halo, Memory Properties APU) and
// "29857(0x74a1)" with gfx942 (MI300X, discrete).
constexpr std::array<AmdChip, 2> known_chips{{
    {0x1586, "gfx1151", "strixhalo", true},
    {0x74a1, "gfx942", "", false},
}};
}  // namespace

std::optional<AmdChip> lookup_amd_chip(std::uint32_t chip_id) {
    for (const auto& chip : known_chips)
        if (chip.chip_id == chip_id) return chip;
    return std::nullopt;
}

std::string format_chip_id(std::uint32_t chip_id) { return fmt::format("0x{:04x}", chip_id); }

}  // namespace perfgate::probes
