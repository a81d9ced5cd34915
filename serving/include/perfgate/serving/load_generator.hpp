#pragma once
// perfgate's own load generator for OpenAI-compatible servers (llama-server, vLLM, SGLang, ...):
// streams each completion over HTTP/1.1 (Boost.Beast) and times it from the client, each request's
// TTFT, ITL and end-to-end latency as vLLM's serving benchmark defines them (request_timing.hpp);
// TPOT is (end-to-end latency - TTFT) / (output tokens - 1), for a request of two tokens or more.
// `concurrency` clients each send their next request as soon as their last one ended, until the
// request set is used up (a closed loop: the load is the concurrency, not a request rate).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/serving/completion_chunk.hpp"

namespace perfgate::serving {

struct CompletionRequest {
    std::string prompt;
    // Token ids sent as the prompt instead of the text (the completions API takes either): a prompt
    // of exactly the suite's length, whatever the model's tokenizer would make of a text.
    std::vector<std::int64_t> prompt_tokens;
    std::int64_t max_tokens = 0;  // the output length: ignore_eos is asked, so the server writes them all
};

// `count` requests of `prompt_length` token ids each (drawn from `seed`, the same every run, from
// ids every tokenizer of the forged models has: 1000 to 4999). Their output lengths are spread
// evenly over `output_length` · [1 − output_spread, 1 + output_spread] in an order drawn from the
// seed, so every request set has the same total output (its mean is `output_length`); a spread of
// 0 gives every request `output_length`.
std::vector<CompletionRequest> synthetic_requests(std::size_t count, std::int64_t prompt_length,
                                                  std::int64_t output_length, std::uint64_t seed = 28,
                                                  double output_spread = 0);

struct LoadOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;
    std::string path = "/v1/completions";
    std::string model;  // the request's "model" (llama-server accepts any)
    std::size_t concurrency = 1;
    std::chrono::milliseconds request_timeout{120'000};
};

struct RequestRecord {
    bool ok = false;
    std::string error;          // why it failed (connection, HTTP status, a stream error event)
    double ttft_s = 0;
    double e2e_s = 0;
    std::vector<double> itl_s;  // one per token event after the first
    std::int64_t token_events = 0;   // events with a choice (request_timing.hpp)
    std::int64_t output_tokens = 0;  // usage.completion_tokens when sent, else the events with text
    std::optional<ServerTimings> server;  // llama-server's own timings of the request
};

struct LoadResult {
    std::vector<RequestRecord> records;  // in the request set's order
    double wall_s = 0;                   // first request sent to last stream ended
    double client_cpu_s = 0;             // CPU time of this process over the load (the client's cost)
};

// Runs the request set. An error only for what prevents any load (no request, concurrency 0);
// each request's own failure is in its record.
Expected<LoadResult> run_load(const LoadOptions& options, const std::vector<CompletionRequest>& requests);

// The smallest step of the clock the figures are taken with (std::chrono::steady_clock), as read
// off it: the finest difference a latency can show.
double clock_step_seconds();

// The JSON body of one streamed completion request.
std::string completion_body(const LoadOptions& options, const CompletionRequest& request);

}  // namespace perfgate::serving
