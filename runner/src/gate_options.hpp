#pragma once
// Gate options shared by a pair's own gate and the suite's summary.
#include <filesystem>
#include <string>

#include "perfgate/gates/gate.hpp"
#include "perfgate/runner/suite_at_ref.hpp"

namespace perfgate::runner::detail {

// In a pull request the CI workflow sets PERFGATE_BASELINE_REF to the merge base, so baselines and
// thresholds are read as they are there (docs/ci.md); set but empty is an error. Rows of this run
// are never their own baseline.
inline Expected<gates::GateOptions> gate_options(const std::string& thresholds_dir,
                                                 const std::filesystem::path& benchmarks_dir, const std::string& run_id) {
    gates::GateOptions g;
    g.benchmarks_dir = benchmarks_dir.string();
    g.thresholds_dir = thresholds_dir;
    auto ref = baseline_ref_from_environment();
    if (!ref) return ref.error();
    g.baseline_ref = *ref;
    g.exclude_run_id = run_id;
    // A suite's first run records its baselines: every pair is new, and that passes with the note
    // "first run: baseline recorded" (a run with nothing compared and nothing new still fails).
    g.empty_run = gates::EmptyRun::first_run;
    return g;
}

}  // namespace perfgate::runner::detail
