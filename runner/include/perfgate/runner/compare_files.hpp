#pragma once
// perfgate compare A B: two result files of any format perfgate reads, judged exactly as the gate
// judges a run, with A as the explicit baseline and B as the run.
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/report.hpp"

namespace perfgate::runner {

// `options` carries the gate's settings (thresholds folder, tolerances, test, ...); its results,
// baseline and benchmarks folder are set here. `host` names the host of llama-bench files, which
// do not record one. A results CSV is passed to the gate as it is (its file name still tells the
// series and host of an mlxcel file); llama-bench output is converted to rows first.
Expected<gates::GateReport> compare_result_files(const std::string& baseline, const std::string& current,
                                                 gates::GateOptions options, const std::string& host);

}  // namespace perfgate::runner
