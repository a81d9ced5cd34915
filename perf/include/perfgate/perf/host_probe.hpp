#pragma once
// Bridge to the probes library: runs the probe and keeps what the runner needs.
#include <optional>
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/host_context.hpp"

namespace perfgate::perf {

struct HostProbeOptions {
    std::string sysroot = "/";                 // a recorded machine's folder replays it
    std::optional<std::string> search_path;    // PATH for the probe's tools (a recording's bin/)
    std::string thresholds_dir = "thresholds";
    std::optional<std::string> runtime_kind;     // a kind or probe alias of the runtime table: let the runtime name the device
    std::optional<std::string> runtime_binary;
    std::optional<std::string> runtime_model;
    std::optional<std::string> host_tag;         // --host-tag: overrides the derived tag
};

// Probes this host (or the recorded one) now; a runtime_kind not in the runtime table is an error.
Expected<HostContext> probe_host_context(const HostProbeOptions& options);

}  // namespace perfgate::perf
