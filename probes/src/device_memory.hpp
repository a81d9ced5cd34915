#pragma once
// The memory rules: which figure is the device's memory, and how much of it a run may plan for.
#include <cstdint>
#include <optional>
#include <string>

#include "perfgate/core/expected.hpp"

namespace perfgate::probes {

// Share of the device figure a model may fill; the rest is left for the KV cache, activations,
// the runtime and (on unified memory) the OS. 0.85 is the factor mlxcel's harness uses, kept so
// that perfgate and mlxcel skip the same models.
inline constexpr double default_memory_headroom = 0.85;

struct MemoryFigure {
    std::uint64_t bytes = 0;
    std::string source;
};

struct UmaInputs {
    std::optional<MemoryFigure> device_figure;  // runtime, rocminfo pool, or sysfs VRAM
    std::optional<std::uint64_t> vram_bytes;  // the carve-out (sysfs mem_info_vram_total, rocm-smi)
    std::optional<std::uint64_t> gtt_bytes;
    std::optional<std::uint64_t> host_memory_bytes;
    bool uma = false;
};

// On unified memory a small carve-out sits beside a large GTT: the runtime allocates from GTT,
// which cannot exceed host RAM. When the figure is that carve-out (not above the known VRAM size,
// or no figure at all) and min(GTT, host RAM) is larger, the latter is used. A runtime figure
// above the carve-out is kept. VRAM and GTT are the same physical memory and are never added.
std::optional<MemoryFigure> choose_amd_device_memory(const UmaInputs& in);

// Apple: ggml's recommendedMaxWorkingSetSize "MB" is MiB in older builds and 10^6 bytes in newer
// ones; hw.memsize decides which reading is a sane share (2/3 or 3/4) of RAM.
std::optional<std::uint64_t> resolve_metal_working_set(double printed_mb, std::optional<std::uint64_t> memsize);

std::uint64_t apply_headroom(std::uint64_t device_bytes, double factor);

// thresholds/<host_tag>.json key "memory_headroom" (0 < x <= 1). nullopt: no file or no key.
Expected<std::optional<double>> read_memory_headroom(const std::string& thresholds_dir, const std::string& host_tag);

}  // namespace perfgate::probes
