#include "device_memory.hpp"

#include "perfgate/core/thresholds_file.hpp"

#include <algorithm>
#include <cmath>

namespace perfgate::probes {

std::optional<MemoryFigure> choose_amd_device_memory(const UmaInputs& in) {
    if (!in.uma) return in.device_figure;
    std::optional<MemoryFigure> gtt;
    if (in.gtt_bytes && *in.gtt_bytes > 0) {
        if (in.host_memory_bytes && *in.host_memory_bytes < *in.gtt_bytes)
            gtt = MemoryFigure{*in.host_memory_bytes, "host MemTotal (GTT limit, bounded by host RAM)"};
        else
            gtt = MemoryFigure{*in.gtt_bytes, "sysfs mem_info_gtt_total (GTT)"};
    }
    if (!in.device_figure) return gtt;
    const bool figure_is_carve_out = !in.vram_bytes || in.device_figure->bytes <= *in.vram_bytes;
    if (gtt && figure_is_carve_out && gtt->bytes > in.device_figure->bytes) return gtt;
    return in.device_figure;
}

std::optional<std::uint64_t> resolve_metal_working_set(double printed_mb, std::optional<std::uint64_t> memsize) {
    if (!(printed_mb > 0)) return std::nullopt;
    const double as_mib = printed_mb * 1048576.0;
    const double as_mb = printed_mb * 1e6;
    if (!memsize) return static_cast<std::uint64_t>(std::llround(as_mb));  // the smaller reading: never overstate
    // Metal's budget is 2/3 or 3/4 of RAM: pick the reading whose share lands closest to one of them.
    const auto distance = [&](double bytes) {
        const double share = bytes / static_cast<double>(*memsize);
        return std::min(std::abs(share - 2.0 / 3.0), std::abs(share - 0.75));
    };
    return static_cast<std::uint64_t>(std::llround(distance(as_mib) <= distance(as_mb) ? as_mib : as_mb));
}

std::uint64_t apply_headroom(std::uint64_t device_bytes, double factor) {
    return static_cast<std::uint64_t>(std::floor(static_cast<double>(device_bytes) * factor));
}

Expected<std::optional<double>> read_memory_headroom(const std::string& thresholds_dir, const std::string& host_tag) {
    if (thresholds_dir.empty()) return std::optional<double>{};
    auto doc = read_thresholds_json(thresholds_dir, host_tag);
    if (!doc) return doc.error();
    if (!*doc) return std::optional<double>{};
    return memory_headroom_of(**doc);
}

}  // namespace perfgate::probes
