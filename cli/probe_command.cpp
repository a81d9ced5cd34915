// `perfgate probe`: detects backend, device, device memory and host identity (library: probes/).
#include <fmt/format.h>

#include <cmath>


#include "commands.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/perf/host_context.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "perfgate/gates/thresholds.hpp"
#include "perfgate/probes/memory_bandwidth.hpp"
#include "perfgate/probes/probe.hpp"

namespace perfgate::cli {
namespace {

struct ProbeArgs {
    bool json = false;
    std::string sysroot;
    std::string runtime_kind;
    std::string runtime_binary;
    std::string runtime_model;
    std::string thresholds_dir = "thresholds";
    std::string host_tag;
    bool bandwidth = false;
    unsigned threads = 0;
    unsigned passes = 10;
};

// --bandwidth: the read pass, and the thresholds entry that records it (docs/report.md).
int run_bandwidth(const ProbeArgs& args) {
    probes::BandwidthOptions options;
    options.threads = args.threads;
    options.passes = args.passes;
    auto measured = probes::measure_memory_bandwidth(options);
    if (!measured) {
        fmt::print(stderr, "{}\n", measured.error().message);
        return exit_code::usage;
    }
    const auto& m = *measured;
    const auto source = fmt::format("perfgate probe --bandwidth (read of {} MiB, {} threads, best of {})",
                                    m.array_bytes >> 20, m.threads, m.passes);
    fmt::print("memory bandwidth: {:.2f} GB/s; {}{}\n", m.bytes_per_s / 1e9, source,
               m.last_level_cache_bytes ? fmt::format(", last-level cache {} MiB", *m.last_level_cache_bytes >> 20) : "");
    gates::MemoryBandwidth entry;
    entry.bytes_per_s = std::round(m.bytes_per_s / 1e6) * 1e6;  // whole megabytes: the last digits are noise
    entry.source = source;
    entry.date = perf::today();
    fmt::print("for thresholds/<host_tag>.json (measure on a quiet machine):\n{}", gates::with_memory_bandwidth("{}", entry));
    return exit_code::success;
}

int run_probe(const ProbeArgs& args) {
    if (args.bandwidth) return run_bandwidth(args);
    std::optional<std::string> kind, tag;
    if (!args.runtime_kind.empty()) kind = args.runtime_kind;
    if (!args.host_tag.empty()) tag = args.host_tag;
    Expected<probes::RuntimeQuery> query = probes::RuntimeQuery::none;
    if (kind) query = perf::find_probe_query(*kind);
    const Status st = query ? probes::check_host_tag_choice(tag) : Status(query.error());
    if (!st) {
        fmt::print(stderr, "perfgate probe: {}\n", st.error().message);
        return exit_code::usage;
    }
    probes::ProbeOptions options;
    options.host_tag = tag;
    if (!args.sysroot.empty()) options.sysroot = args.sysroot;
    options = probes::with_environment_defaults(options);
    options.runtime_kind = kind;
    options.runtime_query = *query;
    if (!args.runtime_binary.empty()) options.runtime_binary = args.runtime_binary;
    if (!args.runtime_model.empty()) options.runtime_model = args.runtime_model;
    options.thresholds_dir = args.thresholds_dir;
    const auto facts = probes::probe_host(options);
    if (args.json) fmt::print("{}\n", probes::to_json(facts).dump(2));
    else fmt::print("{}", probes::to_summary(facts));
    return exit_code::success;
}

}  // namespace

void add_probe_command(CLI::App& app) {
    auto args = std::make_shared<ProbeArgs>();
    auto* cmd = app.add_subcommand("probe", "Detect backend, device, device memory and host identity");
    cmd->add_flag("--json", args->json, "Print one JSON object instead of the summary");
    cmd->add_option("--sysroot", args->sysroot, "Read /proc, /sys, /etc, /opt under DIR (default /, or $PERFGATE_SYSROOT)");
    auto* kind = cmd->add_option("--runtime", args->runtime_kind, "Ask this runtime first: " + perf::probe_runtime_names() + " (the suites' runtime kinds, then older spellings); unknown kinds are usage errors");
    auto* binary = cmd->add_option("--runtime-binary", args->runtime_binary, "Path of the runtime executable");
    kind->needs(binary);
    binary->needs(kind);
    cmd->add_option("--runtime-model", args->runtime_model, "Model for mlxcel's one-token probe run");
    cmd->add_option("--thresholds", args->thresholds_dir, "Folder of <host_tag>.json files (memory_headroom)")
        ->capture_default_str();
    cmd->add_flag("--bandwidth", args->bandwidth,
                  "Measure the CPU host's memory read bandwidth instead (a timed sum over 4 x the last-level "
                  "cache, at least 256 MiB, best of --passes) and print the thresholds entry that records it");
    cmd->add_option("--threads", args->threads, "With --bandwidth: threads (default: every hardware thread)");
    cmd->add_option("--passes", args->passes, "With --bandwidth: timed passes, the best counts")
        ->capture_default_str()->check(CLI::Range(1u, 1000u));
    cmd->add_option("--host-tag", args->host_tag, "Use this host tag instead of the derived one ([a-z0-9-], no '_', at most 64 characters)");
    cmd->callback([args] { exit_status = run_probe(*args); });
}

}  // namespace perfgate::cli
