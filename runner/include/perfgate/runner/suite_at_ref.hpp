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
#include "perfgate/gates/gate.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::runner {

using WorkloadChanges = std::map<std::pair<std::string, std::string>, std::string>;

// nullopt when the manifest did not exist at `ref` (then nothing excuses a dropped pair). An
// Error when git fails or the manifest at the ref does not parse (named "REF:path:line").
Expected<std::optional<perf::Suite>> suite_at_ref(const std::filesystem::path& manifest, const std::string& ref);

// The text of each forge spec the suite at `ref` names, as it was at the ref, by model name (a
// spec that did not exist there is left out): a change that edits a spec changes the model under
// the same name. An Error when git fails.
using SpecTexts = std::map<std::string, std::string>;
Expected<SpecTexts> forge_specs_at_ref(const perf::Suite& at_ref, const std::string& ref);

// The pairs of both suites whose workload differs, with what changed: prompt_tokens,
// generated_tokens, batch; the runtime's args, flags, binary, env and server url (what runs, and
// what it is asked to do); whether it replays recorded output; the model's checkpoint and forge
// spec paths, and the spec's text against `specs_at_ref` (what is loaded).
WorkloadChanges workload_changes(const perf::Suite& at_ref, const perf::Suite& now, const SpecTexts& specs_at_ref = {});

// The pull-request guard's reading of `now` at `ref`, into the gate's options: the pairs the suite
// ran there (pairs_at_ref) and what the change altered (workload_changes, forge specs read at the
// ref). Nothing when the manifest did not exist at the ref; an Error when git fails.
Status read_suite_at_ref(const perf::Suite& now, const std::string& ref, gates::GateOptions& options);

// A pair that a measured suite of a backend ran at the base ref and no measured suite runs now.
struct DroppedPair {
    std::string runtime, model;
    std::string suite_at_ref;  // "REF:perf/suites/cpu.json"
};
// The backend's guard over its suites as a whole (perfgate guard, CTest perf.guard.<backend>;
// issue 48, items 2-3): every measured suite (not "replay": true, suite or runtime) named
// <suites_dir>/<backend>*.json at `ref`, read there, against the measured suites of that name in
// the folder now. A pair is dropped when no measured suite runs it now, whatever the suites are
// called: a deleted suite, a renamed runtime, a suite turned into a replay. The per-suite gates
// cannot see these: a deleted suite has no gate, and a replay suite is recorded ungated. The
// pairs measured now, counted, come back in `measured_now`. An Error when git fails or a suite
// (at the ref or now) does not parse.
struct SuitesGuard {
    std::size_t measured_at_ref = 0, measured_now = 0;
    std::vector<DroppedPair> dropped;
};
Expected<SuitesGuard> guard_suites(const std::filesystem::path& suites_dir, const std::string& backend, const std::string& ref);

// The base ref a run gates at: the --baseline-ref option (CMake's PERFGATE_BASELINE_REF puts it on
// the perf tests' command lines). An Error when it is blank (a failed merge-base step must not
// turn the protection off) or when the environment still sets PERFGATE_BASELINE_REF: a test
// preset's "environment" can set any variable, so the ref is never read from there (docs/ci.md).
Expected<std::optional<std::string>> baseline_ref_for_run(const std::optional<std::string>& option);

}  // namespace perfgate::runner
