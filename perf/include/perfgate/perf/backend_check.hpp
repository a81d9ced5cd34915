#pragma once
// A <backend>-perf build on a host without that backend must not pass quietly: every pair would be
// SKIP:no_backend and CTest would report 100% passed. The suite's setup test calls this and fails.
#include "perfgate/core/expected.hpp"
#include "perfgate/perf/host_context.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::perf {

// PERFGATE_ALLOW_BACKEND_MISMATCH set to 1, ON, TRUE or YES (any case).
bool backend_mismatch_allowed_by_environment();

// An error naming the suite's backend and what the probe found, when the host lacks the backend.
Status require_suite_backend(const Suite& suite, const HostContext& host);

}  // namespace perfgate::perf
