#pragma once
// What a runtime adapter reads out of one run's output.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::perf {

// Facts a runtime reports about itself and the model it ran (whatever its output carries).
struct RuntimeFacts {
    std::string version;
    std::string commit;          // as printed (llama-bench prints a short hash)
    std::string backends;        // llama-bench "backends", e.g. "CPU" or "ROCm"
    std::string device;          // llama-bench gpu_info / mlxcel GPU line
    std::string cpu;             // llama-bench cpu_info
    std::string model_type;      // llama-bench model_type, e.g. "qwen3 0.6B Q4_0"
    std::optional<std::uint64_t> model_size;      // bytes, as the runtime reports them
    std::optional<std::uint64_t> model_n_params;
    std::optional<double> peak_memory_gb;
};

struct Measurement {
    std::optional<std::int64_t> prompt_tokens;
    std::optional<std::int64_t> generated_tokens;
    std::optional<double> prefill_ms;
    std::optional<double> prefill_tok_s;
    std::optional<double> decode_ms;
    std::optional<double> decode_tok_s;
    // Per-repetition readings when one process measured several repetitions.
    std::vector<double> prefill_samples;
    std::vector<double> decode_samples;
    std::optional<double> decode_stddev;   // when the runtime reports one (Catch2, llama-bench)
    RuntimeFacts facts;
};

}  // namespace perfgate::perf
