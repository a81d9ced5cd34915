#pragma once
// Parser for ggml's Metal init block (matched by key name, whatever the function prefix).
#include <optional>
#include <string>
#include <string_view>

namespace perfgate::probes {

struct MetalInitReport {
    std::optional<std::string> device_name;  // "found device: Apple M4" or "GPU name:   Apple M4"
    std::optional<std::string> gpu_family;   // first "GPU family: MTLGPUFamilyApple9"
    std::optional<bool> unified_memory;      // "hasUnifiedMemory = true"
    // recommendedMaxWorkingSetSize as printed, in "MB": MiB in 2023 builds, 10^6 bytes in 2025
    // builds; resolve with resolve_metal_working_set().
    std::optional<double> recommended_max_working_set_mb;
};

MetalInitReport parse_metal_init(std::string_view text);

}  // namespace perfgate::probes
