#pragma once
// Parser for llama.cpp's device report: ggml_cuda_init device lines (old and new formats),
// ggml_vulkan device lines, `--list-devices` lines and the "failed to initialize" line.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::probes {

struct LlamaCppDevice {
    int index = 0;
    std::string name;
    std::optional<std::string> gfx_arch;       // "gfx1151" (ROCm, or the RADV driver tag)
    std::optional<std::uint32_t> pci_id;       // "(0x1151)"
    std::optional<std::string> compute_cap;    // "12.1" (CUDA)
    std::optional<std::uint64_t> vram_bytes;   // new format "VRAM: N MiB" or --list-devices total
    std::optional<bool> uma;                   // Vulkan "uma: 1"
};

struct LlamaCppDevices {
    std::optional<std::string> backend;  // "rocm", "cuda", "vulkan" (from the init lines)
    std::optional<std::uint64_t> total_vram_bytes;  // "(Total VRAM: 126976 MiB)"
    std::vector<LlamaCppDevice> devices;
    std::optional<std::string> init_failure;  // "failed to initialize ROCm: no ROCm-capable device is detected"
};

LlamaCppDevices parse_llama_cpp_devices(std::string_view text);

}  // namespace perfgate::probes
