#pragma once
// The warnings printed beside a verdict: a changed system fingerprint and a superseded baseline.
#include <optional>
#include <string>

#include "history.hpp"
#include "perfgate/gates/samples.hpp"

namespace perfgate::gates::detail {

// "fingerprint changed: hardware A -> B, ..." when driver, ROCm/HIP, CUDA or hardware strings differ
// between the two sides (fields empty on either side are not compared), or when one machine's
// machine_fingerprint changed (a new kernel, CPU microcode, driver).
std::optional<std::string> fingerprint_change(const SampleGroup& baseline, const SampleGroup& current);

// A newer reading of the baseline's model, host and harness, in another CSV dated after the
// baseline and before this run. Files are examined newest first; the first reading wins.
Expected<std::optional<std::string>> superseded_baseline(BenchmarkHistory& history, const HistoryFile& baseline_file,
                                                         const SampleGroup& baseline, const std::string& run_date,
                                                         const std::vector<std::string>& spellings,
                                                         const ModelCatalog& catalog);

}  // namespace perfgate::gates::detail
