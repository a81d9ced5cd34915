#pragma once
// A runtime kind (a suite manifest's "kind") described in one place: how it is launched, what it
// prints and which parser reads that, whether it repeats itself in one process, and how the probe
// asks it for its device. src/runtime_table.cpp lists one adapter per kind; suite parsing, the
// pair runner and the probe's callers look the kind up there by name instead of switching on it
// (docs/development.md, "How to add a runtime").
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/measurement.hpp"
#include "perfgate/perf/suite.hpp"
#include "perfgate/probes/runtime_query.hpp"

namespace perfgate::perf {

// What a parser may read: the launch's output and the declarations that select within it.
struct RunOutput {
    std::string_view out;         // stdout alone (formats that are one document: JSON, XML)
    std::string_view merged;      // stdout then stderr (formats of log lines, wherever printed)
    const SuiteRuntime& runtime;  // e.g. a "command" runtime's patterns
    const SuiteModel& model;      // e.g. the BENCHMARK a catch2 "model" selects
};

// One output format: its manifest spelling (a runtime's "output" forces it) and its parser.
struct OutputFormat {
    std::string name;
    std::function<Expected<Measurement>(const RunOutput&)> parse;
};

struct RuntimeAdapter {
    std::string name;  // the manifest's "kind", the probe's --runtime KIND
    // The launch arguments when the suite gives no "args" ({placeholders}: pair_runner.hpp's
    // build_arguments); empty: there is no sensible default and the suite must give "args".
    std::vector<std::string> default_args;
    std::vector<OutputFormat> formats;  // tried in order: the first that yields decode_tok_s wins
    // One launch runs every repetition itself (llama-bench -r N) and the parser returns the
    // samples; otherwise one launch per warmup and per repetition, one reading each. A suite's
    // "repetitions_in_process" overrides it.
    bool in_process_repetitions = false;
    std::int64_t own_warmups = 0;  // warmup runs an in-process runtime makes itself (the row's warmup)
    // Lines on stderr starting with this are the runtime's progress, shown on the console as they
    // arrive (the prefix cut); empty: the runtime prints none.
    std::string progress_prefix;
    bool takes_cpu_threads = false;  // "-t N": on a cpu suite perfgate picks N unless the suite sets it
    // Appended when its instructions are counted ("measure": "instructions"): what makes each token
    // run once, so that the workloads' differences are the tokens asked for (llama-bench's warmup
    // repeats the whole prompt: --no-warmup).
    std::vector<std::string> counting_flags;
    // What a pair of this kind measures unless the suite says otherwise: a server (llama-server)
    // is driven by the load generator (Measure::serving).
    Measure measure = Measure::time;
    probes::RuntimeQuery probe_query = probes::RuntimeQuery::none;  // how the probe asks it for its device
    std::vector<std::string> probe_aliases;  // other names `perfgate probe --runtime` accepts for it
    std::vector<std::string> metrics;        // the result columns its parsers fill ("decode_tok_s", ...)
    // Rules for the kind's own manifest keys, run after the common ones were read: a message
    // (the suite's file:line is put before it) or nothing. May be empty.
    std::function<std::optional<std::string>(const SuiteRuntime&)> check;
};

// The table's rows, in the order messages list them (a deque: a row added later moves none).
const std::deque<RuntimeAdapter>& runtime_adapters();
// nullptr for a name that is no kind.
const RuntimeAdapter* find_runtime_adapter(std::string_view kind);
// A runtime's adapter; a SuiteRuntime whose kind is not in the table is a programmer error (throws).
const RuntimeAdapter& adapter_of(const SuiteRuntime& runtime);
// The metrics a runtime of this kind, measured that way, can have: those its parsers fill, and
// those the launch measures itself (a timed launch's peak memory and device memory; a counted
// launch's instructions per token). Metrics only other tools' files carry (llama-bench's -pg
// tests) are not among them.
std::vector<std::string> measurable_metrics(const SuiteRuntime& runtime);
// "llama-bench, mlxcel, mlx-lm, catch2, command": the kinds, for messages.
std::string runtime_kind_names();
// Any adapter's format by its manifest spelling ("mlxcel-generate"); nullptr if none has it.
const OutputFormat* find_output_format(std::string_view name);

// Adds a row (a runtime kind this build does not ship: the tests' sample, an embedder's runtime).
// Not thread-safe: call it before suites are read. An error if the name or a format name is taken.
Status register_runtime_adapter(RuntimeAdapter adapter);
// Takes a registered row out again (a test leaves the table as it found it); the shipped rows stay.
void unregister_runtime_adapter(std::string_view kind);

// `perfgate probe --runtime KIND` / `perfgate run --probe-runtime KIND=BINARY`: a kind or one of
// its probe aliases; an error (a usage error, exit 2) lists the valid names.
Expected<probes::RuntimeQuery> find_probe_query(std::string_view name);
// The kinds then the aliases: "llama-bench, mlxcel, mlx-lm, catch2, command, llama.cpp, llama-cpp".
std::string probe_runtime_names();

// The runtime's output read with its formats (a forced "output", else its kind's, in order): the
// first measurement with a decode rate, else the first partial one, else the first error.
Expected<Measurement> parse_runtime_output(const SuiteRuntime& runtime, const SuiteModel& model,
                                           std::string_view out, std::string_view merged);

}  // namespace perfgate::perf
