// command: any program; the suite says how to run it ("args") and how to read it ("patterns", one
// regex per metric). One launch per repetition.
#include "perfgate/perf/adapters.hpp"
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {

RuntimeAdapter command_runtime() {
    RuntimeAdapter a;
    a.name = "command";
    a.formats = {{"command", [](const RunOutput& o) { return parse_command_output(o.merged, o.runtime.patterns); }}};
    a.metrics = {"decode_tok_s", "prefill_tok_s"};
    // Without a decode pattern nothing could ever be read: refused when the suite is read.
    a.check = [](const SuiteRuntime& rt) -> std::optional<std::string> {
        if (rt.patterns.decode_tok_s.empty()) return "a \"command\" runtime needs \"patterns\" with at least \"decode_tok_s\"";
        return std::nullopt;
    };
    return a;
}

}  // namespace perfgate::perf
