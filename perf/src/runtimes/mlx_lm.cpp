// mlx-lm: mlx_lm.benchmark ("Trial N: ...") or mlx_lm.generate --verbose; which script runs is the
// suite's choice, so there is no default command line. One launch per repetition.
#include "perfgate/perf/adapters.hpp"
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {

RuntimeAdapter mlx_lm_runtime() {
    RuntimeAdapter a;
    a.name = "mlx-lm";
    a.formats = {{"mlx-lm-benchmark", [](const RunOutput& o) { return parse_mlx_lm_benchmark(o.merged); }},
                 {"mlx-lm-generate", [](const RunOutput& o) { return parse_mlx_lm_generate(o.merged); }}};
    a.metrics = {"decode_tok_s", "prefill_tok_s"};
    return a;
}

}  // namespace perfgate::perf
