#pragma once
// Parser for `rocm-smi` output: the long form ("GPU[0]\t\t: key: value") or its --json form.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::probes {

struct RocmSmiCard {
    int index = 0;
    std::optional<std::string> card_series;  // "AMD Radeon Graphics"
    std::optional<std::string> gfx_version;  // "gfx1151" (--showproductname --json)
    std::optional<std::uint32_t> device_id;  // "Device ID: 0x74a1" / "Card Model": "0x1586"
    std::optional<std::uint64_t> vram_total_bytes;
    std::optional<std::uint64_t> gtt_total_bytes;
};

struct RocmSmiReport {
    std::optional<std::string> driver_version;  // "Driver version: 6.7.0"
    std::vector<RocmSmiCard> cards;
};

RocmSmiReport parse_rocm_smi(std::string_view text);

}  // namespace perfgate::probes
