#include "perfgate/perf/launcher.hpp"

#include <utility>

namespace perfgate::perf {

LaunchResult launch(const LaunchRequest& request) {
    LaunchResult result;
    auto ran = run_process(request);
    if (!ran) {
        result.start_error = ran.error().message;
        return result;
    }
    static_cast<ProcessResult&>(result) = std::move(*ran);
    result.started = true;
    result.truncated = result.out_truncated || result.err_truncated;
    return result;
}

}  // namespace perfgate::perf
