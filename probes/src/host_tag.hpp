#pragma once
// The one place for the host-tag rule and mlxcel's full hardware string.
#include <cstdint>
#include <optional>
#include <string>

#include "perfgate/probes/host_facts.hpp"

namespace perfgate::probes {

struct HostIdentity {
    Backend backend = Backend::cpu;
    std::optional<std::string> device_name;
    std::optional<std::string> device_arch;      // real arch (chip id wins over an override)
    std::optional<std::uint32_t> chip_id;
    std::optional<std::string> cpu_model;        // for cpu hosts and Apple brand strings
    std::optional<std::string> rocm_version;
    std::optional<std::string> cuda_version;
    std::optional<std::uint64_t> device_memory_bytes;
    std::optional<std::uint64_t> host_memory_bytes;
};

// Short tag: lowercase [a-z0-9-], no '_', whole words only. Examples: strixhalo-gfx1151,
// amd-gfx942, h200, gb10, v100, m1max, m4, cpu-epyc, nvidia-geforce-rtx-4090. At most
// kMaxHostTagLength (64) characters: a longer name is cut after its last whole word that fits.
std::string make_host_tag(const HostIdentity& id);
// mlxcel's full string (spaces become '_'): AMD_Radeon_8060S_Graphics_gfx1151_ROCm7.2.0_96GB.
std::string make_hardware_string(const HostIdentity& id);
// True when `tag` obeys the rule above; the rule itself lives in perfgate/core/host_tag_rule.hpp.
bool is_valid_host_tag(const std::string& tag);

}  // namespace perfgate::probes
