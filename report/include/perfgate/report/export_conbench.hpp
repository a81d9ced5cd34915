#pragma once
// Export for Conbench (https://conbench.github.io/conbench/): a JSON array of benchmark results, one
// per pair and metric of one run, each the body of one `POST /api/benchmark-results` as Conbench's
// BenchmarkResult create schema has it (conbench/entities/benchmark_result.py):
//   run_id, batch_id, timestamp (ISO 8601 UTC), cluster_info {name: host tag, info: what decides
//   speed (backend, device, architecture, CPU, machine id), optional_info: the rest},
//   stats {data: the run's samples in recorded order, unit}, tags {name: the metric, runtime, model,
//   prompt and generated tokens, batch, harness}, context (runtime flags, build type, compiler,
//   weights format: a change breaks Conbench's history, as other flags restart perfgate's), info
//   (runtime version, source file), github {repository, commit: the rows' runtime commit}.
// Conbench accepts four units (B/s, s, ns, i/s): tok/s goes as i/s (higher is better); metrics with
// no Conbench unit (bytes, instructions per token) are left out and listed, never sent mislabelled.
// cluster_info, not machine_info: machine_info requires cache sizes and clock rates no row records.
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::report {

struct ConbenchExportOptions {
    std::vector<std::string> results;   // perfgate or mlxcel result CSVs
    std::optional<std::string> run_id;  // only the rows of this run (required when the files hold several)
    std::string repository;             // https://github.com/org/repo of the measured runtime (Conbench requires it)
    std::string run_reason;             // optional: "commit", "pull-request", ...
};

struct ConbenchExport {
    std::string json;                  // the array of results
    std::vector<std::string> left_out; // "<pair> <metric>: why" for each reading not exported
};

// The results, or an error naming the files: no ok reading, several runs without --run-id, an
// unknown run, a repository that is not a https://github.com URL.
Expected<ConbenchExport> export_conbench(const ConbenchExportOptions& options);

}  // namespace perfgate::report
