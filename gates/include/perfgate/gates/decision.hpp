#pragma once
// The decision rule for one metric of one pair (docs/gate.md, "Decision").
#include <string>
#include <vector>

#include "perfgate/gates/report.hpp"
#include "perfgate/gates/statistics.hpp"
#include "perfgate/gates/thresholds.hpp"

namespace perfgate::gates {

// Compares current against baseline samples of `metric` (tok/s: higher is better).
MetricCheck decide_metric(const std::string& metric, const std::vector<double>& baseline,
                          const std::vector<double>& current, const Threshold& threshold, StatTest test);

}  // namespace perfgate::gates
