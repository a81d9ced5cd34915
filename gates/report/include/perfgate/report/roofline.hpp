#pragma once
// Roofline check of decode: decoding one token reads every weight once, so
// efficiency = weight bytes x decode tok/s / memory bandwidth (1.0 = at the bandwidth roof).
// The bandwidth is per host: thresholds/<host_tag>.json, key "memory_bandwidth_bytes_per_s".
#include <cstdint>
#include <optional>
#include <string>

#include "perfgate/core/expected.hpp"

namespace perfgate::report {

struct Bandwidth {
    double bytes_per_s = 0;
    std::string source;  // "thresholds/strixhalo-gfx1151.json"
};

// nullopt when the file or the key is absent; an Error when the file is not JSON or the key is not a
// positive number.
Expected<std::optional<Bandwidth>> read_memory_bandwidth(const std::string& thresholds_dir, const std::string& host);

std::optional<double> decode_efficiency(std::optional<std::uint64_t> model_bytes, double decode_tok_s,
                                        const std::optional<Bandwidth>& bandwidth);

}  // namespace perfgate::report
