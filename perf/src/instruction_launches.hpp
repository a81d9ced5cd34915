#pragma once
// The launches of a pair measured with "measure": "instructions" (docs/instructions.md): the
// runtime runs under valgrind's cachegrind on three workloads, and the differences of their
// instruction counts are the instructions per prompt token and per generated token. Model
// loading and start-up are the same in all three and cancel; a warmup that repeats the workload is
// turned off (RuntimeAdapter::counting_flags: llama-bench --no-warmup).
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/suite.hpp"
#include "pair_launches.hpp"

namespace perfgate::perf {

struct InstructionPlan {
    std::string suite_path;  // for messages: "<suite>:<line>: ..."
    const SuiteRuntime& runtime;
    const SuiteModel& model;
    const Workload& workload;  // prompt_tokens P and generated_tokens N: the base workload
    std::string model_path;
    std::string forge_spec;
    std::string label;
};

struct InstructionReadings {
    double prefill_per_token = 0;  // (I(2P, N) - I(P, N)) / P
    double decode_per_token = 0;   // (I(P, 2N) - I(P, N)) / N
    Measurement base;              // what the base workload's output said (token counts, the runtime's facts)
};

// The valgrind arguments before the runtime's program: cachegrind, instructions only (no cache
// simulation: it multiplies the time and is not gated), the output file.
std::vector<std::string> cachegrind_arguments(const std::string& out_file);

// The runtime's program as valgrind runs it (a bare name resolved on PATH), and its arguments for
// one counted workload (the adapter's counting_flags appended).
std::string counted_binary(const SuiteRuntime& runtime);
std::vector<std::string> counted_arguments(const InstructionPlan& plan, std::int64_t prompt_tokens,
                                           std::int64_t generated_tokens);

// An error (exit 2) when the runtime's arguments do not change with the workload: the differences
// would be nothing. Otherwise the readings, or why a launch stopped the pair.
Expected<std::variant<InstructionReadings, LaunchStop>> run_instruction_launches(const InstructionPlan& plan,
                                                                                 std::ostream& log);

}  // namespace perfgate::perf
