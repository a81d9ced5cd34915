#pragma once
// Export for teams that already run a dashboard: Bencher Metric Format (BMF) JSON, the input of
// `bencher run --adapter json` (https://bencher.dev/docs/reference/bencher-metric-format).
//
// One export is one report of one run: an object whose keys are benchmarks, each an object whose
// keys are measures, each {"value", "lower_value", "upper_value"}. Here a benchmark is a pair
// ("llama-bench/qwen3-0.6b"; harness, batch and prompt length added when a file holds the pair
// more than once), a measure is a registered metric key ("decode_tok_s", its unit the metric's
// recorded unit), value the median of the pair's ok samples, lower and upper their least and
// greatest. The host is not in the names: Bencher keeps hosts apart as testbeds (`--testbed`), so
// an export holds one host.
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::report {

struct BmfExportOptions {
    std::vector<std::string> results;  // perfgate or mlxcel result CSVs
    std::optional<std::string> run_id; // only the rows of this run (a history file holds many)
};

// The BMF document, or an error naming the file (no ok reading, several hosts, an unknown run id).
Expected<std::string> export_bmf(const BmfExportOptions& options);

}  // namespace perfgate::report
