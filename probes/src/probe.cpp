#include "perfgate/probes/probe.hpp"

#include <cstdlib>

namespace perfgate::probes {

ProbeOptions with_environment_defaults(ProbeOptions options) {
    if (options.sysroot.empty() || options.sysroot == "/")
        if (const char* env = std::getenv("PERFGATE_SYSROOT"); env && *env) options.sysroot = env;
    return options;
}

HostFacts probe_host(const ProbeOptions& options) {
    const auto obs = collect_observations(options);
    return decide_host_facts(obs, HeadroomChoice{options.headroom_factor, options.thresholds_dir});
}

}  // namespace perfgate::probes
