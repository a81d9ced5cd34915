#pragma once
// The launch of a serving pair (pair_runner.cpp's step 4 for "measure": "serving", docs/serving.md):
// the server started once behind the contention guard, the warmup passes of the load, then one
// pass per repetition, each summarised (serving/latency_summary.hpp), and the server stopped
// whole. What comes back is every repetition's figures or why the pair stopped.
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "pair_launches.hpp"
#include "perfgate/serving/latency_summary.hpp"

namespace perfgate::perf {

// Output lengths of a pass spread over half to one and a half times the workload's (its mean): with
// one length for all, the clients of a closed loop run in lockstep or not by chance, and a new
// request's prompt stalls the others' tokens only when they are out of step. Measured, tiny-llama-ci
// at concurrency 4, two unchanged runs: ITL p99 8.7 ms in lockstep, 35.3 ms out of it. Spread
// lengths keep the clients out of step in every run, as real traffic is (vLLM's random dataset
// spreads its lengths the same way, --random-range-ratio). Rows record it (load_mark): figures of
// another spread are another method to the gate.
inline constexpr double serving_output_spread = 0.5;

struct ServingReadings {
    std::vector<serving::ServingSummary> repetitions;
    double client_cpu_s_per_request = 0;  // the load generator's own CPU per request, over every pass
    std::optional<double> beyond_server_ms;  // median over passes of the p50 of e2e - the server's own timings
};

std::variant<ServingReadings, LaunchStop> run_serving(const LaunchPlan& plan, ContentionGuard& guard, std::ostream& log);

// The row's serving figures: one sample per repetition, the median as the headline.
void apply_serving_readings(ResultRow& row, const ServingReadings& readings);

}  // namespace perfgate::perf
