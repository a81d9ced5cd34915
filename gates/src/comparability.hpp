#pragma once
// Whether a baseline reading can be compared with the current one at all (docs/gate.md, "Pairs and
// baselines"): checked before any number is, so that another workload is never read as a change.
#include <optional>
#include <string>
#include <vector>

#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/samples.hpp"

namespace perfgate::gates::detail {

// Why a baseline group cannot be compared with the current one: `pair` when nothing can be
// compared (another prompt length, a cross-runtime gap), `decode` when only the decode rate cannot
// (another decode budget or generated-token count: the prompt, and so prefill, is the same).
struct Incomparable {
    std::optional<std::string> pair, decode;
    bool any() const { return pair || decode; }
};

// A difference that does not prevent the comparison is added to `warnings`.
Incomparable not_comparable_reason(const SampleGroup& base, const SampleGroup& now, bool cross_runtime,
                                   const GateOptions& options, std::vector<std::string>& warnings);

}  // namespace perfgate::gates::detail
