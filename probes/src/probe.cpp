#include "perfgate/probes/probe.hpp"

#include <cstdlib>
#include <string>

#include "perfgate/core/host_tag_rule.hpp"
#include "perfgate/core/text.hpp"
#include "host_tag.hpp"

namespace perfgate::probes {

ProbeOptions with_environment_defaults(ProbeOptions options) {
    if (options.sysroot.empty() || options.sysroot == "/")
        if (const char* env = std::getenv("PERFGATE_SYSROOT"); env && *env) options.sysroot = env;
    return options;
}

HostFacts probe_host(const ProbeOptions& options) {
    const auto obs = collect_observations(options);
    return decide_host_facts(obs, HeadroomChoice{options.headroom_factor, options.thresholds_dir, options.host_tag});
}

Status check_host_tag_choice(const std::optional<std::string>& host_tag) {
    if (host_tag && !is_valid_host_tag(*host_tag))
        return make_error("--host-tag \"" + printable_excerpt(*host_tag, 80) + "\" is not a host tag: lowercase letters, digits and '-', no '_', at most " +
                          std::to_string(kMaxHostTagLength) + " characters (it names files)");
    return Ok{};
}

}  // namespace perfgate::probes
