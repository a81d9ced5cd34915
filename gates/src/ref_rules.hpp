#pragma once
// The gate's rules that hold only at a base ref (--baseline-ref; docs/gate.md, "Pull-request
// safety"). There a run exists to be compared with the base: what passes elsewhere as "new" or
// "not comparable" (a first run, another workload) would let a change pass by making its pairs
// incomparable, so it fails instead.
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/catalog.hpp"
#include "perfgate/gates/report.hpp"
#include "history.hpp"

namespace perfgate::gates::detail {

// Why a pair without a baseline reading proves nothing at `ref`, or nullopt when it is a genuinely
// new pair (one the change adds, on a host with history): its host has no benchmark file of its
// series at the ref (a host tag the change switched), or every reading of the pair at the ref is
// dated after the run (a clock set back).
Expected<std::optional<std::string>> unknown_at_ref(BenchmarkHistory& history, const SampleGroup& current,
                                                    const std::vector<std::string>& series,
                                                    const std::vector<std::string>& spellings,
                                                    const ModelCatalog& catalog, const std::string& ref);

// A metric that cannot be compared (the decode rate under another decode budget), with its readings.
MetricCheck not_comparable_metric(const std::string& metric, const std::string& reason,
                                  const std::vector<double>& before, const std::vector<double>& now);

// A pair (or metric) not comparable with its baseline becomes failed, the reason saying why.
void fail_not_comparable_at_ref(PairReport& pair, const std::string& ref);

}  // namespace perfgate::gates::detail
