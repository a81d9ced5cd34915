#pragma once
// One pair of a suite: run -> record -> gate -> (rerun while inconclusive), as a plain loop.
#include <ostream>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "perfgate/runner/suite_run.hpp"

namespace perfgate::runner::detail {

struct PairResult {
    perf::PairOutcome first;  // the first run: its status line and CSV
    Outcome outcome = Outcome::pass;
};

Expected<PairResult> run_gated_pair(const perf::Suite& suite, const perf::PairRequest& pair,
                                    const SuiteRunRequest& request, std::ostream& log, std::ostream& out);

}  // namespace perfgate::runner::detail
