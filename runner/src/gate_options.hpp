#pragma once
// Gate options shared by a pair's own gate and the suite's summary.
#include <filesystem>
#include <string>

#include "perfgate/gates/gate.hpp"
#include "perfgate/perf/host_context.hpp"
#include "perfgate/perf/suite.hpp"
#include "perfgate/runner/suite_at_ref.hpp"
#include "perfgate/runner/suite_run.hpp"

namespace perfgate::runner::detail {

// In a pull request the CI workflow configures the perf tests with the merge base as their
// --baseline-ref, so baselines and thresholds are read as they are there (docs/ci.md); blank, or
// PERFGATE_BASELINE_REF in the environment, is an error. At a ref the suite as it is there says
// which pairs a run may not drop and which workloads the change altered. Rows of this run are never
// their own baseline.
inline Expected<gates::GateOptions> gate_options(const perf::Suite& suite, const perf::HostContext& host,
                                                 const SuiteRunRequest& request,
                                                 const std::filesystem::path& benchmarks_dir, const std::string& run_id) {
    gates::GateOptions g;
    g.benchmarks_dir = benchmarks_dir.string();
    g.thresholds_dir = request.thresholds_dir;
    auto ref = baseline_ref_for_run(request.baseline_ref);
    if (!ref) return ref.error();
    g.baseline_ref = *ref;
    // Replay inputs (--sysroot, PERFGATE_SYSROOT, --host-json of a recording) name a recorded
    // machine: in a measured suite they would give the run another host tag, every pair "new".
    if (g.baseline_ref && !suite.replay && !host.replay.empty())
        return make_error("the host facts of this measured suite were replayed from " + host.replay +
                          ", not probed on the machine that measured; at a base ref (" + *g.baseline_ref +
                          ") recorded machines are for replay suites only");
    if (g.baseline_ref)
        if (auto st = read_suite_at_ref(suite, *g.baseline_ref, g); !st) return st.error();
    g.exclude_run_id = run_id;
    // Rows recorded outside the reviewed history (perfgate's own presets record into the build
    // folder) are this machine's local history: a second run on a new machine is judged against
    // its first (issue 49 item 1). The gate never reads it at a base ref (gates/src/sources.cpp).
    g.local_history_dir = request.results_dir.string();
    // One error budget for the suite run, the same in each pair's own gate and in the summary's:
    // every pair of the suite times every metric, whether or not it is measured this time.
    g.family_size = suite.pairs.size() * gates::gated_metrics().size();
    // A suite's first run records its baselines: every pair is new, and that passes with the note
    // "first run: baseline recorded" (a run with nothing compared and nothing new still fails).
    g.empty_run = gates::EmptyRun::first_run;
    return g;
}

}  // namespace perfgate::runner::detail
