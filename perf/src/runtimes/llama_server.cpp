// llama-server (llama.cpp's OpenAI-compatible server, from the same pinned build as llama-bench): a
// server, so its pairs are measured by perfgate's load generator (docs/serving.md). perfgate starts
// it on a loopback port ({port}) with one slot per client ({concurrency}) and room in its context
// for every client's prompt and output ({context}); it is ready when /health answers 200.
// --cache-ram 0: llama-server keeps every finished prompt in a host-memory cache (8 GiB by default)
// that each new request searches; with a benchmark's unique prompts it never hits and its cost grows
// with the requests served (measured, tiny-llama-ci at concurrency 4, 48 requests a pass: 369-422
// output tok/s with it, 431-467 without), so the figures would depend on how long the pair ran.
#include "perfgate/core/metric.hpp"
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {

RuntimeAdapter llama_server_runtime() {
    RuntimeAdapter a;
    a.name = "llama-server";
    a.default_args = {"-m", "{model_path}", "--host", "127.0.0.1", "--port", "{port}", "-np", "{concurrency}",
                      "-c", "{context}", "--no-webui", "--cache-ram", "0"};
    a.takes_cpu_threads = true;
    a.measure = Measure::serving;
    a.metrics = metric_keys(Measure::serving);
    return a;
}

}  // namespace perfgate::perf
