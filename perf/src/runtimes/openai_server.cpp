// openai-server: any server of the OpenAI completions API that perfgate starts itself (vLLM's
// `vllm serve`, SGLang's `python -m sglang.launch_server`, TensorRT-LLM's `trtllm-serve`, ...),
// measured by the same load generator as llama-server (docs/serving.md, "Other servers"). There is
// no sensible default launch: the suite's "args" say how to start it, with {port} where it must
// listen ({model_path} and {concurrency} as for any runtime), and "health_path" where it answers
// when ready (/health unless set). Or a "url": a server already running, which perfgate drives
// but does not start.
#include "perfgate/core/metric.hpp"
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {

RuntimeAdapter openai_server_runtime() {
    RuntimeAdapter a;
    a.name = "openai-server";
    a.measure = Measure::serving;
    a.metrics = metric_keys(Measure::serving);
    // The load generator connects to the port perfgate chose: a server started elsewhere would
    // never be reached, and the pair would wait out its start-up bound for nothing.
    // A "url" is a server that is already running: nothing to start.
    a.check = [](const SuiteRuntime& rt) -> std::optional<std::string> {
        if (!rt.serving.url.empty()) return std::nullopt;
        for (const auto& arg : rt.args)
            if (arg.find("{port}") != std::string::npos) return std::nullopt;
        return "an \"openai-server\" runtime needs \"args\" that start the server on {port} (the loopback port perfgate "
               "chose and the load generator connects to), or the \"url\" of a server that is already running";
    };
    return a;
}

}  // namespace perfgate::perf
