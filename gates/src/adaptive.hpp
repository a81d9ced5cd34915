#pragma once
// Adaptive repetitions: a pair whose verdict is inconclusive (a drop beyond the threshold that the
// test cannot yet call significant) gets more readings, up to a bound, before its verdict is final.
// The caller supplies the readings (the runner reruns the pair); the gate decides when to stop.
//
// The suite runner does the same for its pairs as an explicit loop over gate_rows
// (runner/src/pair_loop.cpp); this callback form serves callers that gate rows they already hold:
//
//     auto more = [&](const gates::PairReport&, std::size_t rerun) -> Expected<std::vector<ResultRow>> {
//         return std::vector<ResultRow>{ /* one more reading of the pair, or none */ };
//     };
//     auto report = gates::gate_rows_adaptive(rows, options, max_reruns, more);
//     // report->pairs[i].reruns says how many reruns each pair took; passed(*report) says whether it passed.
#include <cstddef>
#include <functional>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/report.hpp"
#include "perfgate/gates/statistics.hpp"
#include "perfgate/gates/thresholds.hpp"

namespace perfgate::gates {

// Returns new rows of the pair (the same model and runtime), e.g. one more run; an empty vector
// means "no more readings available" and ends the loop for that pair. `rerun` counts from 1.
using MoreReadings = std::function<Expected<std::vector<ResultRow>>(const PairReport& pair, std::size_t rerun)>;

// gate_rows, then for every inconclusive pair: ask `more` for readings, add them to the pair's
// current samples and gate again, until the pair is conclusive or has had `max_reruns` reruns.
// Each PairReport's `reruns` says how many it took; a note per rerun pair says so too. Errors from
// `more` or from the gate end the whole call.
Expected<GateReport> gate_rows_adaptive(std::vector<ResultRow> current, const GateOptions& options,
                                        std::size_t max_reruns, const MoreReadings& more);

// The same loop on bare samples of one metric (no history, no files): decide_metric, and while the
// check is inconclusive and fewer than `max_reruns` reruns happened, append `more_samples(rerun)`.
struct AdaptiveCheck {
    MetricCheck check;
    std::size_t reruns = 0;
};
using MoreSamples = std::function<Expected<std::vector<double>>(std::size_t rerun)>;
Expected<AdaptiveCheck> decide_metric_adaptive(const std::string& metric, const std::vector<double>& baseline,
                                               std::vector<double> current, const Threshold& threshold, StatTest test,
                                               std::size_t max_reruns, const MoreSamples& more_samples);

}  // namespace perfgate::gates
