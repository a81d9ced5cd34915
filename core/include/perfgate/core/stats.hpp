#pragma once
// The summaries every stage agrees on: the recorder's headline figure, the gate's medians and the
// adapters' averages of a runtime's repetitions all come from here.
#include <vector>

namespace perfgate {

// Inputs must be non-empty and finite (the parsers and the CSV reader refuse anything else): an
// empty vector, a NaN or an infinity is a bug upstream and throws std::invalid_argument, which the
// gate turns into an error message. Huge finite readings (1e308) do not overflow.
double median(std::vector<double> values);
double mean(const std::vector<double>& values);
// The p-quantile (0 <= p <= 1) by linear interpolation between the closest ranks (Hyndman and
// Fan's type 7, numpy's default, which vLLM's and SGLang's serving benchmarks report): p50, p99 of
// latencies compare with theirs. Written here because Boost.Math 1.81 has median but no quantile of
// a sample.
double quantile(std::vector<double> values, double p);

}  // namespace perfgate
