#pragma once
// Where a run's host facts come from: the file the suite's probe test wrote (--host-json), or a
// probe now. Shared by perfgate run and perfgate ab.
#include <filesystem>
#include <ostream>
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/host_context.hpp"

namespace perfgate::runner {

struct HostSource {
    std::filesystem::path host_json;  // facts written by --write-host; empty: probe now
    std::string sysroot = "/";        // probe a recorded machine from this folder (a replay)
    std::string tool_path;            // PATH for the probe's tools
    std::string probe_runtime;        // KIND=BINARY: let this runtime name the device
    std::string host_tag;             // overrides the probe's derived tag (validated like it)
    std::string thresholds_dir = "thresholds";  // the probe reads a host's memory headroom here
};

// The facts with a date and a run id (taken now when the file has none).
Expected<perf::HostContext> resolve_host(const HostSource& source);

// The suite's setup test: probe now (or replay `source.host_json`), stamp today's date and a new
// run id, write the facts to `file` and print one line about the host to `out`.
Status write_host_file(const HostSource& source, const std::filesystem::path& file, std::ostream& out);

}  // namespace perfgate::runner
