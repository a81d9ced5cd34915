// catch2: a Catch2 2.x test binary's BENCHMARKs through its XML reporter; a suite "model" names
// the BENCHMARK. Catch2 repeats (samples) inside the one process.
#include "perfgate/perf/adapters.hpp"
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {

RuntimeAdapter catch2_runtime() {
    RuntimeAdapter a;
    a.name = "catch2";
    a.formats = {{"catch2-xml", [](const RunOutput& o) { return parse_catch2_xml(o.out, o.model.benchmark); }}};
    a.in_process_repetitions = true;
    a.metrics = {"decode_tok_s", "decode_ms"};
    return a;
}

}  // namespace perfgate::perf
