#pragma once
// One model/runtime pair from start to end: fit check, (forge), warmup, repetitions, parse,
// classify, record. Gating the recorded row and rerunning are the runner library's loop
// (runner/src/pair_loop.cpp), so a run never calls itself back.
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"
#include "perfgate/perf/contention_guard.hpp"
#include "perfgate/perf/host_context.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::perf {

struct PairRequest {
    std::string runtime;
    std::string model;
    HostContext host;
    std::filesystem::path results_dir;          // empty: do not record
    std::string suffix;                         // overrides the suite's results_suffix when set
    std::map<std::string, std::string> binaries;  // runtime name -> binary (overrides the manifest)
    std::filesystem::path forge_dir;            // where forged checkpoints are cached
    std::filesystem::path vocab_dir;            // llama.cpp's models/ folder, for the forge
    // Paths inside this folder are recorded relative to it (model_path, command): the CSV names
    // no folder of the machine that measured. Empty: recorded as given.
    std::filesystem::path project_root;
    std::filesystem::path build_root;  // the CMake build folder: paths inside it (outside the project) are recorded as <build>/...
    // The contention guard: off unless the caller turns it on (perfgate run does, from
    // PERFGATE_CONTENTION / --contention); replays never read the machine, whatever is set here.
    ContentionMode contention = ContentionMode::off;
    ContentionSeams contention_seams;
    std::optional<std::int64_t> repetitions;    // overrides the suite's workload (perfgate ab --repetitions)
    std::string arm;                            // perfgate ab: "base" or "head", written to the row
};

struct PairOutcome {
    StatusToken status;
    std::string reason;                         // printed with the status
    std::optional<ResultRow> row;               // absent for a backend skip (nothing to record)
    std::filesystem::path csv;                  // where the row went
};

// The argument vector for one launch of `runtime` on `model_path` (placeholders filled).
std::vector<std::string> build_arguments(const SuiteRuntime& runtime, const Workload& workload,
                                         const std::string& model_path, const std::string& model_name,
                                         std::int64_t repetitions, const std::string& forge_spec = {});

// Input errors (unknown pair, unreadable spec, unwritable results) come back as errors (exit 2);
// runtime trouble is a status in the outcome. `log` gets progress, `out` the CTest measurements.
Expected<PairOutcome> run_pair(const Suite& suite, const PairRequest& request, std::ostream& log, std::ostream& out);

}  // namespace perfgate::perf
