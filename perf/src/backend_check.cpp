#include "perfgate/perf/backend_check.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <string>

#include "perfgate/perf/fit.hpp"

namespace perfgate::perf {

bool backend_mismatch_allowed_by_environment() {
    const char* v = std::getenv("PERFGATE_ALLOW_BACKEND_MISMATCH");
    if (!v) return false;
    std::string s(v);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s == "1" || s == "on" || s == "true" || s == "yes";
}

Status require_suite_backend(const Suite& suite, const HostContext& host) {
    if (host_has_backend(host, suite.backend)) return Ok{};
    return make_error(fmt::format(
        "{}: backend mismatch: the suite measures backend {} (the {}-perf preset) but the probe found backend {} on "
        "host {}{}; every pair would be skipped and the run would look green. Run it on a {} host, or allow the "
        "mismatch to report the pairs as skipped: configure with -DPERFGATE_ALLOW_BACKEND_MISMATCH=ON or set "
        "PERFGATE_ALLOW_BACKEND_MISMATCH=1",
        suite.path.string(), suite.backend, suite.backend, host.backend, host.host,
        host.device.empty() ? "" : " (" + host.device + ")", suite.backend));
}

}  // namespace perfgate::perf
