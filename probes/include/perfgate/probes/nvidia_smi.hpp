#pragma once
// Parsers for `nvidia-smi`: the default table and the csv query
// `--query-gpu=index,name,memory.total,memory.used,memory.free,compute_cap,driver_version --format=csv,noheader,nounits`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::probes {

struct NvidiaGpu {
    std::string name;                                // "NVIDIA H200"
    std::optional<std::uint64_t> memory_total_bytes; // nullopt for "Not Supported" / "[N/A]" (GB10)
    std::optional<std::string> compute_cap;          // "9.0"
    std::optional<std::string> driver_version;
};

struct NvidiaSmiTable {
    std::optional<std::string> driver_version;  // "Driver Version: 580.95.05"
    std::optional<std::string> cuda_version;    // "CUDA Version: 13.0"
    std::vector<NvidiaGpu> gpus;
};

NvidiaSmiTable parse_nvidia_smi(std::string_view text);
// The column order is the one named above; the header line, if present, is skipped.
std::vector<NvidiaGpu> parse_nvidia_smi_csv(std::string_view text);
// The query the probe runs, kept next to the parser that reads it.
inline constexpr const char* nvidia_smi_csv_query =
    "--query-gpu=index,name,memory.total,memory.used,memory.free,compute_cap,driver_version";

}  // namespace perfgate::probes
