#pragma once
// A suite manifest (perf/suites/<name>.json): which models, which runtimes, which workload and
// which model/runtime pairs run. Loading validates everything and names file:line on errors.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/method_marks.hpp"
#include "perfgate/core/metric.hpp"
#include "perfgate/perf/adapters.hpp"

namespace perfgate::perf {

struct SuiteModel {
    std::string name;                       // [A-Za-z0-9.-]+, part of the test name
    std::filesystem::path checkpoint;       // a file or folder the runtime loads (may be empty with forge_spec)
    std::filesystem::path forge_spec;       // a perf/models/*.json spec the forge turns into a GGUF
    std::string format;                     // Q4_0, 4bit, bf16, ...
    std::optional<std::uint64_t> weight_bytes;   // declared; else from the forge spec or the files
    std::optional<std::uint64_t> kv_cache_bytes; // declared; else estimated from the forge spec
    std::optional<std::uint64_t> overhead_bytes; // declared; else the suite's default
    std::string benchmark;                  // catch2: the BENCHMARK name this "model" selects
    int line = 0;                           // where it is declared, for messages
};

// What a pair measures (a runtime's "measure"): core's Measure, the same that each metric of the
// table belongs to (perfgate/core/metric.hpp).
using perfgate::Measure;

// A serving runtime's load (docs/serving.md): perfgate starts the server on a loopback port and
// drives it with its own load generator at this concurrency; one repetition is one pass over the
// request set.
struct ServingLoad {
    std::int64_t concurrency = 1;     // clients sending at once; also the server's slots ({concurrency})
    std::int64_t requests = 8;        // requests per repetition
    // Given instead of requests: each client's share, so the points of a concurrency sweep do
    // alike work per client (requests = requests_per_client x concurrency).
    std::optional<std::int64_t> requests_per_client;
    std::string endpoint = "/v1/completions";
    std::string health_path = "/health";
    // A server that is already running, which perfgate does not start or stop (docs/serving.md,
    // "A server that is already running"): http://host:port; empty: perfgate starts the binary.
    std::string url;
};

// A runtime that is one point of a sweep (a runtime entry's "sweep", docs/serving.md "Sweeps"): the
// entry was expanded into one runtime per value, each a test, a row and a history of its own, named
// <entry>-<letter><value> (sweep_point_name).
struct SweepPoint {
    std::string entry;  // the declared runtime's name
    SweepAxis axis = SweepAxis::concurrency;
    std::int64_t value = 0;
};

struct SuiteRuntime {
    std::string name;                       // part of the test name and the CSV's runtime column
    std::string kind = "command";           // a row of the runtime table (runtime_adapter.hpp)
    std::string binary;                     // path (relative to the manifest) or a bare name on PATH
    std::vector<std::string> args;          // with {placeholders}; empty: the kind's default
    std::vector<std::string> flags;         // fixed flags appended after args
    std::map<std::string, std::string> env;
    std::optional<std::string> output;      // a forced format's name; else the kind's formats in order
    CommandPatterns patterns;               // kind "command"
    bool in_process_repetitions = false;    // the runtime repeats itself (llama-bench -r N); the kind's default
    std::string version, commit, upstream_commit, overlay_commit;  // declared provenance
    std::string build_type;  // how the runtime was built, from its --runtime-pin ("Release; GGML_NATIVE=ON ...")
    std::string compiler;    // the C++ compiler that built it, from its --runtime-pin ("GNU 12.2.0")
    std::string format;                     // weight format this runtime uses (overrides the model's: bf16)
    bool replay = false;                    // a stub that prints recorded output
    Measure measure = Measure::time;
    std::string valgrind = "valgrind";      // measure instructions: the valgrind to run it under
    ServingLoad serving;                    // measure serving: the load
    std::optional<SweepPoint> sweep;        // a point of a sweep; its setting is applied (workload_of, serving)
    int line = 0;
};

// The contention guard's limits (suite key workload.contention; docs/runner.md, "Contention").
struct ContentionLimits {
    double max_load_per_cpu = 1.5;   // 1-minute load average per CPU, checked before a launch
    double max_other_cpu = 0.25;     // share of all CPUs that other processes used in a window
    std::int64_t max_gpu_processes = 0;  // other processes holding the GPU
    double max_wait_s = 120;         // one budget per pair for waiting until the machine is quiet
    double poll_s = 5;               // pause between two looks while it is busy
    double window_s = 1;             // length of one look at the CPU counters
};

struct Workload {
    std::int64_t prompt_tokens = 512;
    std::int64_t generated_tokens = 128;
    std::int64_t batch = 1;
    std::int64_t warmup = 1;
    std::int64_t repetitions = 3;
    double cooldown_s = 0;
    double big_cooldown_s = 0;
    std::uint64_t big_model_bytes = 10ull << 30;  // big-cooldown threshold (mlxcel: 10 GiB)
    double timeout_s = 300;                       // per run (one process)
    std::int64_t max_reruns = 2;                  // reruns of a pair found inconclusive or regressed (gates::wants_another_launch)
    ContentionLimits contention;
};

struct SuitePair {
    std::string runtime;
    std::string model;
};

struct Suite {
    std::filesystem::path path;
    std::string name;
    std::string backend;                    // the backend the suite targets (rocm, cpu, ...)
    bool replay = false;                    // every runtime prints recorded output
    std::string results_suffix;             // appended to the CSV name (replay suites: "replay")
    std::uint64_t default_overhead_bytes = 512ull << 20;
    Workload workload;
    std::vector<SuiteModel> models;
    std::vector<SuiteRuntime> runtimes;
    std::vector<SuitePair> pairs;

    const SuiteModel* find_model(const std::string& name) const;
    const SuiteRuntime* find_runtime(const std::string& name) const;
};

// The workload a runtime's pairs run: the suite's, with a sweep point's prompt, output or batch.
Workload workload_of(const Suite& suite, const SuiteRuntime& runtime);

// Parses and validates a manifest; `origin` names it in messages ("suites/cpu.json:12: ...").
// Relative paths are resolved against `base_dir`.
// Whether the files a suite names must exist now: a suite read as it was at a git ref (the
// pull-request guard) names the files of that ref, which a change may have moved or removed.
enum class SuiteFiles { must_exist, as_at_a_ref };
Expected<Suite> parse_suite(const std::string& json_text, const std::string& origin,
                            const std::filesystem::path& base_dir, SuiteFiles files = SuiteFiles::must_exist);
Expected<Suite> load_suite(const std::filesystem::path& path);

// A name that can appear in a test name and a file name: [A-Za-z0-9][A-Za-z0-9.-]*, no "..".
bool is_safe_name(const std::string& name);

}  // namespace perfgate::perf
