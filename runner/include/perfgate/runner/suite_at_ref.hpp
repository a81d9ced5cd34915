#pragma once
// The pairs a suite manifest runs as it is at a git ref: what the gate's pull-request guard
// (gates::GateOptions::pairs_at_ref, docs/gate.md) compares the change's run with, so that a pair
// renamed, removed or skipped by the change fails unless the base ref's suite lacks it too.
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "perfgate/core/expected.hpp"

namespace perfgate::runner {

using SuitePairs = std::set<std::pair<std::string, std::string>>;  // (runtime, model)

// nullopt when the manifest did not exist at `ref` (then nothing excuses a dropped pair). An
// Error when git fails or the manifest at the ref does not parse (named "REF:path:line").
Expected<std::optional<SuitePairs>> suite_pairs_at_ref(const std::filesystem::path& manifest, const std::string& ref);

// The environment's PERFGATE_BASELINE_REF (set by CI to the merge base): nullopt when unset, an
// Error when set but empty (a failed merge-base step must not turn the protection off).
Expected<std::optional<std::string>> baseline_ref_from_environment();

}  // namespace perfgate::runner
