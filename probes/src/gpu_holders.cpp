#include "perfgate/probes/contention.hpp"

namespace perfgate::probes {

bool has_gpu_holders(std::string_view backend) { return backend == "rocm" || backend == "cuda"; }

// One place that knows which backend has which per-process GPU source: the contention guard asks
// it for the other holders, the device-memory sampler for the runtime's own.
std::optional<Expected<std::vector<OtherProcess>>> read_gpu_holders(std::string_view backend, const Sysroot& root,
                                                                    const std::vector<std::string>& search_dirs,
                                                                    std::chrono::milliseconds timeout) {
    if (!has_gpu_holders(backend)) return std::nullopt;
    if (backend == "rocm") return Expected<std::vector<OtherProcess>>(read_kfd_processes(root));
    return query_nvidia_compute_apps(search_dirs, timeout);
}

}  // namespace perfgate::probes
