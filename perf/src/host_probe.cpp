#include "perfgate/perf/host_probe.hpp"

#include <algorithm>

#include "perfgate/core/host_tag_rule.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "perfgate/probes/cpu_cores.hpp"
#include "perfgate/probes/probe.hpp"
#include "perfgate/probes/sysroot.hpp"

namespace perfgate::perf {

Expected<HostContext> probe_host_context(const HostProbeOptions& options) {
    probes::ProbeOptions po;
    po.sysroot = options.sysroot;
    po.search_path = options.search_path;
    po.thresholds_dir = options.thresholds_dir;
    po.runtime_kind = options.runtime_kind;
    if (options.runtime_kind) {  // how to ask it is the runtime table's column
        auto query = find_probe_query(*options.runtime_kind);
        if (!query) return query.error();
        po.runtime_query = *query;
    }
    po.runtime_binary = options.runtime_binary;
    po.runtime_model = options.runtime_model;
    po.host_tag = options.host_tag;
    po = probes::with_environment_defaults(po);
    const probes::HostFacts f = probes::probe_host(po);
    if (f.host_tag.empty()) return make_error("probe: no host tag could be derived for this host");
    // The tag names the results file: checked here, before anything is measured, by the rule the
    // recorder applies after (make_host_tag already keeps to it).
    if (auto bad = host_tag_problem(f.host_tag, "the probe")) return make_error("probe: " + *bad);
    HostContext h;
    h.backend = to_string(f.backend);
    h.host = f.host_tag;
    h.hardware = f.hardware;
    h.device = f.device_name.value_or(f.cpu_model.value_or(""));
    h.device_arch = f.device_arch.value_or("");
    h.device_memory_bytes = f.device_memory_bytes;
    h.usable_memory_bytes = f.usable_memory_bytes;
    h.memory_is_device = f.device_memory_bytes.has_value() && f.backend != probes::Backend::cpu;
    h.device_memory_source = f.device_memory_source.value_or("");
    h.uma = f.uma;
    h.host_memory_bytes = f.host_memory_bytes;
    h.cpu_model = f.cpu_model.value_or("");
    if (auto cpuinfo = probes::Sysroot(po.sysroot).read("proc/cpuinfo")) h.cpu_cores = probes::parse_physical_cores(*cpuinfo);
    // Live only: a taskset or container may allow fewer CPUs than the machine has.
    if (po.sysroot == "/")
        if (auto allowed = probes::affinity_cpu_count()) h.cpu_cores = std::min(h.cpu_cores.value_or(*allowed), *allowed);
    h.rocm_version = f.rocm_version.value_or("");
    h.hip_version = f.hip_version.value_or("");
    h.cuda_version = f.cuda_version.value_or("");
    h.driver_version = f.driver_version.value_or("");
    h.os = f.os.value_or("");
    h.kernel = f.kernel.value_or("");
    h.machine_id = f.machine_id.value_or("");
    h.machine_fingerprint = f.machine_fingerprint;
    if (options.sysroot != "/") h.replay = options.sysroot;
    return h;
}

}  // namespace perfgate::perf
