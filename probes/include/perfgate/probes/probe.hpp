#pragma once
// Entry point: probe the host (tools on PATH, files under a sysroot, optionally the runtime).
#include <chrono>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "perfgate/core/expected.hpp"
#include "perfgate/probes/host_facts.hpp"
#include "perfgate/probes/observations.hpp"
#include "perfgate/probes/runtime_query.hpp"

namespace perfgate::probes {

struct ProbeOptions {
    std::string sysroot = "/";                       // --sysroot, PERFGATE_SYSROOT
    std::optional<std::string> runtime_kind;         // the kind's name, for messages: "mlxcel", "llama-bench"
    RuntimeQuery runtime_query = RuntimeQuery::none; // how to ask it (perf's runtime table knows each kind's)
    std::optional<std::string> runtime_binary;       // path of the runtime executable
    std::optional<std::string> runtime_model;        // mlxcel needs a model for its 1-token run
    std::optional<std::string> search_path;          // PATH syntax; default: $PATH
    std::chrono::milliseconds tool_timeout{2000};    // per system tool
    std::chrono::milliseconds runtime_timeout{120000};
    std::optional<double> headroom_factor;           // overrides thresholds/ and the default
    std::string thresholds_dir = "thresholds";       // thresholds/<host_tag>.json "memory_headroom"
    std::optional<std::string> host_tag;             // --host-tag: overrides the derived tag
};

// A --host-tag as the CLI received it: an error (a usage error, exit 2) states the host-tag rule.
// (A --runtime kind is checked against perf's runtime table: perf::find_probe_query.)
Status check_host_tag_choice(const std::optional<std::string>& host_tag);

// Fills the sysroot from PERFGATE_SYSROOT when `options.sysroot` was left at "/".
ProbeOptions with_environment_defaults(ProbeOptions options);

// Gathers observations (never throws for tool trouble: it becomes a warning).
Observations collect_observations(const ProbeOptions& options);
HostFacts probe_host(const ProbeOptions& options);

nlohmann::json to_json(const HostFacts& facts);
std::string to_summary(const HostFacts& facts);

}  // namespace perfgate::probes
