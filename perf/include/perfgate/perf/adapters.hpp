#pragma once
// One parser per runtime output format. Each returns the numbers it found, or an error naming
// the format and an excerpt of the output when the output holds no headline number.
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/measurement.hpp"

namespace perfgate::perf {

// llama-bench -o json: an array of tests; pp tests give prefill, tg tests give decode.
Expected<Measurement> parse_llama_bench_json(std::string_view stdout_text);

// mlxcel-bench-decode (and mlxcel generate --profile): the [Profile Results] block.
Expected<Measurement> parse_mlxcel_profile(std::string_view text);

// mlxcel generate: "[Generated N tokens in Xs = Y tok/s]" (last one wins, as mlxcel's make targets do).
Expected<Measurement> parse_mlxcel_generate(std::string_view text);

// mlx_lm.generate --verbose: "Prompt: ...", "Generation: ...", "Peak memory: ..." (any may be missing).
Expected<Measurement> parse_mlx_lm_generate(std::string_view text);

// mlx_lm.benchmark: "Trial N:  prompt_tps=..., generation_tps=..., peak_memory=...".
Expected<Measurement> parse_mlx_lm_benchmark(std::string_view text);

// Catch2 2.x XML reporter: each <BenchmarkResults>; `benchmark` selects one by name (empty: the
// only one). decode_tok_s is operations per second (1e9 / mean ns), decode_ms the mean in ms.
Expected<Measurement> parse_catch2_xml(std::string_view text, const std::string& benchmark);

// A user-defined command: one ECMAScript regex per metric with one capture group; every match is
// a sample, the headline value is their mean.
struct CommandPatterns {
    std::string decode_tok_s;
    std::string prefill_tok_s;
    std::string prompt_tokens;
    std::string generated_tokens;
    // Optional: the first match's group is the runtime's own account of its version (provenance,
    // e.g. "torch=2.9.0 transformers=4.57.1"), recorded when the suite declares no version.
    std::string version;
    // Optional, likewise: the runtime's commit as it prints it (recorded when the suite declares
    // no commit), so that a runtime added by a suite file alone says which build it measured.
    std::string commit;
};
Expected<Measurement> parse_command_output(std::string_view text, const CommandPatterns& patterns);

}  // namespace perfgate::perf
