// llama-bench (llama.cpp): one process makes its own warmup run and every repetition (-r N) and
// prints one JSON document; with --progress it says on stderr which run it is on.
#include "perfgate/perf/adapters.hpp"
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {

RuntimeAdapter llama_bench_runtime() {
    RuntimeAdapter a;
    a.name = "llama-bench";
    a.default_args = {"-m", "{model_path}", "-p", "{prompt_tokens}", "-n", "{generated_tokens}", "-r", "{repetitions}",
                      "-o", "json", "--progress"};
    a.formats = {{"llama-bench-json", [](const RunOutput& o) { return parse_llama_bench_json(o.out); }}};
    a.in_process_repetitions = true;
    a.own_warmups = 1;
    a.progress_prefix = "llama-bench: ";  // "llama-bench: benchmark 2/2: generation run 2/3"
    a.takes_cpu_threads = true;
    // Its warmup runs the whole prompt once more (and one generated token): counted, the prefill
    // difference would be two prompts' work.
    a.counting_flags = {"--no-warmup"};
    a.probe_query = probes::RuntimeQuery::llama_cpp_devices;
    // The probe's older spellings for any llama.cpp binary; kept so existing scripts still work.
    a.probe_aliases = {"llama.cpp", "llama-cpp"};
    a.metrics = {"decode_tok_s", "prefill_tok_s"};
    return a;
}

}  // namespace perfgate::perf
