#pragma once
// Parser for the lines `mlxcel generate` prints with MLXCEL_DEBUG_KERNEL_BACKEND=1.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::probes {

struct MlxcelBackendReport {
    std::optional<std::string> backend;         // "[mlxcel] custom kernel backend: rocm"
    std::optional<std::string> hip_arch;        // "HIP architecture gfx1151; compiled for [...]"
    std::vector<std::string> compiled_for;      // the bracketed list
    std::optional<std::string> device_name;     // "GPU: <name> (<Vendor>), N GiB device memory."
    std::optional<std::string> device_vendor;   // "Amd"
    std::optional<std::uint64_t> device_memory_bytes;
    std::optional<std::string> runtime_device;  // "Runtime device: GPU" / "Apple GPU (Metal)"
};

MlxcelBackendReport parse_mlxcel_backend(std::string_view text);

}  // namespace perfgate::probes
