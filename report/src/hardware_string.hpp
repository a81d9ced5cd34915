#pragma once
// mlxcel's full hardware string, read back into its parts for files that have no perfgate
// columns (docs/csv-schema.md, "mlxcel's hardware strings"). Only the documented shapes are recognised:
//   ROCm:    <device>_<gfx target>[_ROCm<release>]_<N>GB   (N = device memory, rounded GiB)
//   NVIDIA:  NVIDIA_<name>[_CUDA<major.minor>]_<N>GB        (N = host RAM, rounded GiB)
//   Apple:   Apple_<chip>_<N>GB                             (N = host RAM = unified memory)
#include <optional>
#include <string>
#include <string_view>

namespace perfgate::report {

struct HardwareFacts {
    std::string device;          // "AMD Radeon 8060S Graphics" (underscores back to spaces)
    std::string gpu_target;      // "gfx1151"
    std::string rocm_release;    // "10.0.0" (from ROCm's .info/version, not hipconfig)
    std::string cuda_release;    // "12.9" (nvcc)
    std::optional<int> memory_gib;
    enum class MemoryKind { unknown, device, host } memory_kind = MemoryKind::unknown;
};

HardwareFacts parse_hardware_string(std::string_view hardware);

}  // namespace perfgate::report
