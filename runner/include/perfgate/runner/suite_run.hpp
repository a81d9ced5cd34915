#pragma once
// perfgate run as a library: the pairs of a suite, each run -> record -> gate -> rerun, and the
// suite's summary gate. The loop is explicit (runner/src/pair_loop.cpp): the pair runner measures
// and records, then the gate judges the recorded row, and an inconclusive pair is measured again.
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/contention_guard.hpp"
#include "perfgate/perf/host_context.hpp"
#include "perfgate/perf/suite.hpp"
#include "perfgate/runner/outcome.hpp"

namespace perfgate::runner {

struct SuiteRunRequest {
    std::vector<perf::SuitePair> pairs;            // empty: every pair of the suite
    // Rows go to a folder of their own and are gated against the reviewed baselines: a run never
    // appends to benchmarks/ unless asked to (docs/runner.md, "Where results go").
    std::filesystem::path results_dir = "perf-results";  // empty: measure and classify, record nothing
    std::string suffix;                            // overrides the suite's results_suffix when set
    std::map<std::string, std::string> binaries;   // runtime name -> binary (overrides the manifest)
    std::filesystem::path forge_dir = "build/forged";
    std::filesystem::path vocab_dir;
    bool gate = false;                             // gate each recorded row against its baseline
    std::string thresholds_dir = "thresholds";
    std::filesystem::path history_dir = "benchmarks";  // earlier CSVs to gate against; empty: results_dir
    std::optional<std::string> baseline_ref;       // gate at this git ref (--baseline-ref; docs/ci.md)
    perf::ContentionMode contention = perf::ContentionMode::enforce;
    std::filesystem::path project_root;            // paths inside it are recorded relative to it
    bool color_log = false;                        // colour the per-pair gate reports on `log`
    bool color_out = false;                        // colour the summary's report on `out`
    std::filesystem::path build_root;              // and paths inside this one (outside the project) as <build>/...
};

// The suite with each RUNTIME=FILE pin applied: a runtime build's provenance file (the embedded
// llama.cpp writes llama-pin.json) fills the commit and release the manifest leaves empty.
Expected<perf::Suite> load_suite_with_pins(const std::filesystem::path& manifest, const std::vector<std::string>& pins);

// Parses "RUNTIME/MODEL" selections.
Expected<std::vector<perf::SuitePair>> parse_pair_selection(const std::vector<std::string>& specs);

// Runs the selected pairs one after another. `log` gets progress and gate reports, `out` the CTest
// measurements and one status line per pair. skip only when every pair skipped.
Expected<Outcome> run_suite_pairs(const perf::Suite& suite, const perf::HostContext& host,
                                  const SuiteRunRequest& request, std::ostream& log, std::ostream& out);

// The suite's summary (test perf.gate.<suite>, run after every pair): the whole run's rows against
// their baselines, printed to `out`, and written as perf-gate.md/.junit.xml/.json to `summary_dir`
// when set. skip when no results file exists for the run.
Expected<Outcome> run_summary(const perf::Suite& suite, const perf::HostContext& host, const SuiteRunRequest& request,
                              const std::filesystem::path& summary_dir, std::ostream& out);

}  // namespace perfgate::runner
