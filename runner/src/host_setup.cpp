#include "perfgate/runner/host_setup.hpp"

#include <cstdlib>
#include <fmt/format.h>

#include "perfgate/perf/fit.hpp"
#include "perfgate/perf/host_probe.hpp"
#include "perfgate/probes/probe.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "perfgate/runner/key_value.hpp"

namespace perfgate::runner {
namespace {

Expected<perf::HostContext> probe_now(const HostSource& s) {
    perf::HostProbeOptions po;
    po.sysroot = s.sysroot;
    // The probe also takes its root from PERFGATE_SYSROOT; named here, the facts say they were
    // replayed, so a measured suite's gate at a base ref can refuse them (gate_options.hpp).
    if (po.sysroot.empty() || po.sysroot == "/")
        if (const char* env = std::getenv("PERFGATE_SYSROOT"); env && *env) po.sysroot = env;
    po.thresholds_dir = s.thresholds_dir;
    if (!s.tool_path.empty()) po.search_path = s.tool_path;
    if (!s.probe_runtime.empty()) {
        auto kv = split_key_value(s.probe_runtime, "--probe-runtime",
                                  "KIND=BINARY (KIND: " + perf::probe_runtime_names() + ")");
        if (!kv) return kv.error();
        po.runtime_kind = kv->first;
        po.runtime_binary = kv->second;
    }
    if (!s.host_tag.empty()) po.host_tag = s.host_tag;
    if (po.runtime_kind)
        if (auto query = perf::find_probe_query(*po.runtime_kind); !query) return query.error();
    if (auto st = probes::check_host_tag_choice(po.host_tag); !st) return st.error();
    return perf::probe_host_context(po);
}

}  // namespace

Expected<perf::HostContext> resolve_host(const HostSource& source) {
    auto host = source.host_json.empty() ? probe_now(source) : perf::read_host_context(source.host_json);
    if (!host) return host;
    if (host->date.empty()) host->date = perf::today();
    if (host->run_id.empty()) host->run_id = perf::new_run_id();
    return host;
}

Status write_host_file(const HostSource& source, const std::filesystem::path& file, std::ostream& out) {
    Expected<perf::HostContext> host = make_error("");
    if (!source.host_json.empty()) {
        // A recorded host (a replay): its facts, stamped with this run's date and id.
        host = perf::read_host_context(source.host_json);
        if (host && host->replay.empty()) host->replay = source.host_json.string();
    } else {
        host = probe_now(source);
    }
    if (!host) return host.error();
    host->date = perf::today();
    host->run_id = perf::new_run_id();
    if (auto st = perf::write_host_context(file, *host); !st) return st;
    out << fmt::format("host {} backend {} ({}), usable memory {}{}\n", host->host, host->backend,
                       host->device.empty() ? "no device name" : host->device,
                       host->usable_memory_bytes ? perf::gib(*host->usable_memory_bytes) : "unknown",
                       host->replay.empty() ? "" : ", REPLAYED from " + host->replay);
    return Ok{};
}

}  // namespace perfgate::runner
