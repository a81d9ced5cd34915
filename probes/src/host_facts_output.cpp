#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/core/json_optional.hpp"

#include "perfgate/probes/probe.hpp"

namespace perfgate::probes {

namespace {
std::string memory_text(const std::optional<std::uint64_t>& bytes) {
    return bytes ? fmt::format("{:.1f} GiB", static_cast<double>(*bytes) / 1073741824.0) : "unknown";
}
}  // namespace

nlohmann::json to_json(const HostFacts& f) {
    return nlohmann::json{
        {"backend", to_string(f.backend)},
        {"backend_source", f.backend_source},
        {"host_tag", f.host_tag},
        {"hardware", f.hardware},
        {"device_name", f.device_name},
        {"device_arch", f.device_arch},
        {"reported_arch", f.reported_arch},
        {"device_chip_id", f.device_chip_id},
        {"device_memory_bytes", f.device_memory_bytes},
        {"device_memory_source", f.device_memory_source},
        {"usable_memory_bytes", f.usable_memory_bytes},
        {"memory_headroom", f.headroom_factor},
        {"memory_headroom_source", f.headroom_source},
        {"uma", f.uma},
        {"vram_bytes", f.vram_bytes},
        {"gtt_bytes", f.gtt_bytes},
        {"rocm_version", f.rocm_version},
        {"hip_version", f.hip_version},
        {"hsa_runtime_version", f.hsa_runtime_version},
        {"cuda_version", f.cuda_version},
        {"driver_version", f.driver_version},
        {"os", f.os},
        {"kernel", f.kernel},
        {"cpu_model", f.cpu_model},
        {"host_memory_bytes", f.host_memory_bytes},
        {"machine_id", f.machine_id},
        {"machine_id_sources", f.machine_id_sources},
        {"machine_fingerprint", f.machine_fingerprint},
        {"warnings", f.warnings},
    };
}

std::string to_summary(const HostFacts& f) {
    std::string s = fmt::format("host {} ({})\n", f.host_tag, f.hardware);
    s += fmt::format("backend  {} (from {})\n", to_string(f.backend), f.backend_source);
    if (f.device_name || f.device_arch)
        s += fmt::format("device   {} {}{}{}\n", f.device_name.value_or("unknown"), f.device_arch.value_or("arch unknown"),
                         f.device_chip_id ? " chip " + *f.device_chip_id : "",
                         f.reported_arch ? " (reported " + *f.reported_arch + ")" : "");
    s += fmt::format("memory   {} device ({}){}; usable {} at {:.2f} headroom\n", memory_text(f.device_memory_bytes),
                     f.device_memory_source.value_or("no source"),
                     f.uma ? (*f.uma ? ", unified" : ", dedicated") : "", memory_text(f.usable_memory_bytes), f.headroom_factor);
    s += fmt::format("host     {}, {} RAM, {} / kernel {}\n", f.cpu_model.value_or("unknown CPU"), memory_text(f.host_memory_bytes),
                     f.os.value_or("unknown OS"), f.kernel.value_or("unknown"));
    if (f.rocm_version || f.hip_version) s += fmt::format("rocm     {} (HIP {})\n", f.rocm_version.value_or("unknown"), f.hip_version.value_or("unknown"));
    if (f.cuda_version || f.driver_version) s += fmt::format("driver   {}{}\n", f.driver_version.value_or("unknown"), f.cuda_version ? ", CUDA " + *f.cuda_version : "");
    s += fmt::format("machine  id {} (from {}), fingerprint {}\n", f.machine_id.value_or("unknown"),
                     f.machine_id_sources.empty() ? "no readable source" : fmt::format("{}", fmt::join(f.machine_id_sources, ", ")),
                     f.machine_fingerprint);
    for (const auto& w : f.warnings) s += "warning: " + w + "\n";
    return s;
}

}  // namespace perfgate::probes
