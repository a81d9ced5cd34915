#include "device_memory_sampler.hpp"

#include <utility>

#include "perfgate/core/search_path.hpp"
#include "perfgate/probes/contention.hpp"

namespace perfgate::perf {

DeviceMemorySampler::DeviceMemorySampler(std::string backend, ContentionSeams seams)
    : backend_(std::move(backend)), seams_(std::move(seams)) {}

DeviceMemorySampler DeviceMemorySampler::none() { return DeviceMemorySampler("", ContentionSeams{}); }

void DeviceMemorySampler::attach(LaunchRequest& request) {
    group_ = 0;
    peak_.reset();
    if (!probes::has_gpu_holders(backend_)) return;  // cpu, metal, vulkan, a replay: nothing to read
    request.on_started = [this](std::int64_t group) { group_ = group; };
    request.on_tick = [this, own = std::move(request.on_tick)](double elapsed) {
        if (own) own(elapsed);
        sample();
    };
}

void DeviceMemorySampler::sample() {
    if (group_ <= 0) return;
    const probes::Sysroot root(seams_.sysroot);
    const auto holders = probes::read_gpu_holders(backend_, root, search_path_dirs(seams_.search_path), seams_.tool_timeout);
    // The source could not be read this time: no reading, not a zero.
    if (!holders || !*holders) return;
    const auto bytes = probes::group_device_bytes(root, **holders, group_);
    if (bytes && (!peak_ || *bytes > *peak_)) peak_ = bytes;
}

std::optional<double> DeviceMemorySampler::peak() const {
    if (!peak_) return std::nullopt;
    return static_cast<double>(*peak_);
}

}  // namespace perfgate::perf
