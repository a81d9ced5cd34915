#pragma once
// The figures a serving run is gated on, from its requests' records (load_generator.hpp): the
// 50th, 90th and 99th percentiles of TTFT, TPOT, ITL and end-to-end latency in milliseconds, and
// output tokens and requests per second over the load's wall time. Failed requests count in
// `failed` and in no figure.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/serving/load_generator.hpp"

namespace perfgate::serving {

struct Percentiles {
    double p50 = 0, p90 = 0, p99 = 0;
};

struct ServingSummary {
    std::size_t requests = 0, failed = 0;
    std::optional<Percentiles> ttft_ms, tpot_ms, itl_ms, e2e_ms;  // none: no request had one
    double output_tok_s = 0;
    double request_s = 0;
    // What the client saw beyond what the server says it spent, per request that reported
    // llama-server's `timings`: end-to-end latency - (prompt_ms + predicted_ms). The load
    // generator's own overhead (and the loopback's) is at most this.
    std::optional<Percentiles> beyond_server_ms;
    std::vector<std::string> errors;  // the distinct errors of the failed requests, at most 5
};

ServingSummary summarize(const LoadResult& load);

}  // namespace perfgate::serving
