#pragma once
// The thresholds of one host read from a folder (default.json, then <host_tag>.json over it), for
// callers that judge without baseline files: perfgate ab takes each metric's floor (max_drop) from it.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/thresholds.hpp"

namespace perfgate::gates {

struct HostThresholds {
    ThresholdSet set;
    std::vector<std::string> notes;  // which files applied, or that the built-in defaults did
    std::optional<MemoryBandwidth> memory_bandwidth;  // the host file's, for the report's decode efficiency
};

// A missing default.json gives the built-in defaults; a missing host file leaves the defaults.
// An invalid file is an error naming the file and line; so is a host tag that is not one.
Expected<HostThresholds> load_host_thresholds(const std::filesystem::path& dir, const std::string& host_tag);

}  // namespace perfgate::gates
