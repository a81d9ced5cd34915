// llama-server (llama.cpp's OpenAI-compatible server, from the same pinned build as llama-bench): a
// server, so its pairs are measured by perfgate's load generator (docs/serving.md). perfgate starts
// it on a loopback port ({port}) with one slot per client ({concurrency}) and room in its context
// for every client's prompt and output ({context}); it is ready when /health answers 200.
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {

RuntimeAdapter llama_server_runtime() {
    RuntimeAdapter a;
    a.name = "llama-server";
    a.default_args = {"-m", "{model_path}", "--host", "127.0.0.1", "--port", "{port}", "-np", "{concurrency}",
                      "-c", "{context}", "--no-webui"};
    a.takes_cpu_threads = true;
    a.measure = Measure::serving;
    a.metrics = {"serving_output_tok_s", "ttft_p50_ms", "ttft_p99_ms", "tpot_p50_ms",
                 "tpot_p99_ms",          "itl_p50_ms",  "itl_p99_ms",  "serving_request_s"};
    return a;
}

}  // namespace perfgate::perf
