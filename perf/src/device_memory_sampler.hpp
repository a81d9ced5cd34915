#pragma once
// Peak device memory of one launch (the `peak_device_memory_bytes` metric): the GPU driver's
// per-process account, read about once a second while the runtime runs, summed over the
// runtime's process group (it and whatever it started), the largest kept. The same GPU holders'
// sources as the contention guard (probes::read_gpu_holders): nvidia-smi on cuda, the KFD's
// vram_<gpu> files on rocm. Backends without a per-process source (cpu, metal, vulkan) and
// replays sample nothing, and a launch shorter than a second gets no sample: the row's column
// stays empty rather than claim a zero.
#include <cstdint>
#include <optional>
#include <string>

#include "perfgate/perf/contention_guard.hpp"
#include "perfgate/perf/launcher.hpp"

namespace perfgate::perf {

class DeviceMemorySampler {
public:
    DeviceMemorySampler(std::string backend, ContentionSeams seams);
    // Samples nothing (a replay: nothing runs on this machine's GPU).
    static DeviceMemorySampler none();

    // Hooks sampling into the request: on_started learns the group, each tick samples after
    // whatever the request's own tick does. The request must not outlive this object.
    void attach(LaunchRequest& request);
    // The largest reading since the last attach, in bytes; nullopt when none was taken.
    std::optional<double> peak() const;

private:
    void sample();

    std::string backend_;
    ContentionSeams seams_;
    std::int64_t group_ = 0;
    std::optional<std::uint64_t> peak_;
};

}  // namespace perfgate::perf
