// mlxcel: mlxcel-bench-decode (the default command line, as mlxcel's bench_decode.sh calls it)
// prints a [Profile Results] block; `mlxcel generate` prints "[Generated N tokens ...]". One
// launch per repetition.
#include "perfgate/perf/adapters.hpp"
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {

RuntimeAdapter mlxcel_runtime() {
    RuntimeAdapter a;
    a.name = "mlxcel";
    a.default_args = {"-m", "{model_path}", "-p", "Hello", "-n", "{generated_tokens}", "--prompt-tokens",
                      "{prompt_tokens}", "--ignore-eos"};
    a.formats = {{"mlxcel-profile", [](const RunOutput& o) { return parse_mlxcel_profile(o.merged); }},
                 {"mlxcel-generate", [](const RunOutput& o) { return parse_mlxcel_generate(o.merged); }}};
    a.probe_query = probes::RuntimeQuery::mlxcel_generate;
    a.metrics = {"decode_tok_s", "prefill_tok_s"};
    return a;
}

}  // namespace perfgate::perf
