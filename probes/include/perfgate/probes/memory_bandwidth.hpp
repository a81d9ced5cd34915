#pragma once
// A STREAM-like measurement of the CPU host's memory bandwidth (`perfgate probe --bandwidth`): the
// roof of the report's decode efficiency on CPU hosts. Decoding reads the weights and writes
// almost nothing, so the kernel reads: a sum over one array of several times the last-level cache,
// split over threads, best of N timed passes. (A triad or a copy also writes, and a write costs a
// read for ownership first, so they understate the read bandwidth decode is bounded by.)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/core/expected.hpp"

namespace perfgate::probes {

struct BandwidthOptions {
    std::uint64_t array_bytes = 0;  // 0: 4 x the last-level cache, at least 256 MiB
    unsigned threads = 0;           // 0: every hardware thread
    unsigned passes = 10;           // the best pass counts
};

struct BandwidthResult {
    double bytes_per_s = 0;
    std::uint64_t array_bytes = 0;
    unsigned threads = 0;
    unsigned passes = 0;
    std::optional<std::uint64_t> last_level_cache_bytes;
};

// Bytes of a sysfs cache "size" file ("32768K", "1M", "512"); nullopt when unreadable.
std::optional<std::uint64_t> parse_cache_size(std::string_view text);

// The largest cache of cpu0 under sysroot/sys/devices/system/cpu/cpu0/cache/index*/size.
std::optional<std::uint64_t> last_level_cache_bytes(const std::string& sysroot = "/");

// Runs the read passes. An Error when the array cannot be allocated.
Expected<BandwidthResult> measure_memory_bandwidth(const BandwidthOptions& options);

}  // namespace perfgate::probes
