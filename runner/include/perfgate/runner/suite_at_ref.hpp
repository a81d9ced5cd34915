#pragma once
// The suite manifest as it is at a git ref, and what the change under test altered in it: the
// gate's pull-request guard (gates::GateOptions::pairs_at_ref and workload_changes, docs/gate.md)
// compares the change's run with it, so that a pair renamed, removed or skipped by the change fails
// unless the base ref's suite lacks it too, and a pair whose workload changed fails.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::runner {

using WorkloadChanges = std::map<std::pair<std::string, std::string>, std::string>;

// nullopt when the manifest did not exist at `ref` (then nothing excuses a dropped pair). An
// Error when git fails or the manifest at the ref does not parse (named "REF:path:line").
Expected<std::optional<perf::Suite>> suite_at_ref(const std::filesystem::path& manifest, const std::string& ref);

// The pairs of both suites whose workload differs, with what changed: prompt_tokens,
// generated_tokens, batch, and the runtime's args and flags (what the runtime is asked to do).
WorkloadChanges workload_changes(const perf::Suite& at_ref, const perf::Suite& now);

// The base ref a run gates at: the --baseline-ref option (CMake's PERFGATE_BASELINE_REF puts it on
// the perf tests' command lines). An Error when it is blank (a failed merge-base step must not
// turn the protection off) or when the environment still sets PERFGATE_BASELINE_REF: a test
// preset's "environment" can set any variable, so the ref is never read from there (docs/ci.md).
Expected<std::optional<std::string>> baseline_ref_for_run(const std::optional<std::string>& option);

}  // namespace perfgate::runner
