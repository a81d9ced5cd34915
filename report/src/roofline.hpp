#pragma once
// Roofline check of decode: decoding one token reads every weight once, so
// efficiency = weight bytes x decode tok/s / memory bandwidth (1.0 = at the bandwidth roof).
// The bandwidth is per host: the "memory_bandwidth" object of thresholds/<host_tag>.json
// (gates::MemoryBandwidth; gates::load_host_thresholds reads and validates it with the rest).
#include <cstdint>
#include <optional>

#include "perfgate/gates/thresholds.hpp"

namespace perfgate::report {

using Bandwidth = gates::MemoryBandwidth;

std::optional<double> decode_efficiency(std::optional<std::uint64_t> model_bytes, double decode_tok_s,
                                        const std::optional<Bandwidth>& bandwidth);

}  // namespace perfgate::report
