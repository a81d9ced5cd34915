#pragma once
// Roofline check of decode: decoding one token reads every weight once, so
// efficiency = weight bytes x decode tok/s / memory bandwidth (1.0 = at the bandwidth roof).
// The bandwidth is per host: the "memory_bandwidth" object of thresholds/<host_tag>.json
// (gates::MemoryBandwidth, read and validated by the thresholds parser).
#include <cstdint>
#include <optional>
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/thresholds.hpp"

namespace perfgate::report {

using Bandwidth = gates::MemoryBandwidth;

// nullopt when the host file or its "memory_bandwidth" is absent; an Error (file:line) when the
// file is not a valid thresholds file.
Expected<std::optional<Bandwidth>> read_memory_bandwidth(const std::string& thresholds_dir, const std::string& host);

std::optional<double> decode_efficiency(std::optional<std::uint64_t> model_bytes, double decode_tok_s,
                                        const std::optional<Bandwidth>& bandwidth);

}  // namespace perfgate::report
