// perfgate run: measures model/runtime pairs of a suite, classifies and records them.
// Under CTest each pair test calls `perfgate run --suite S --pair R/M --host-json F`, and the
// suite's setup test calls `perfgate run --suite S --write-host F` once when ctest starts.
// The work is runner::run_invocation; this file declares options and maps the outcome.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common_options.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/process.hpp"
#include "perfgate/runner/run_invocation.hpp"

namespace perfgate::cli {
namespace {

struct RunOptions {
    runner::RunInvocation run;
    std::string color = "auto";
    std::string baseline_ref;
};

}  // namespace

void add_run_command(CLI::App& app) {
    auto o = std::make_shared<RunOptions>();
    auto& run = o->run;
    auto& r = run.request;
    auto* cmd = app.add_subcommand("run", "Measure model/runtime pairs of a suite, classify and record them.\n"
                                          "Exit: 0 ok, 1 FAIL (or regression), 77 SKIP (reason printed), 2 usage or input error.");
    cmd->add_option("--suite", run.suite, "Suite manifest (perf/suites/<name>.json)")->required();
    cmd->add_option("--pair", run.pairs, "RUNTIME/MODEL to run (repeatable; default: every pair of the suite)");
    cmd->add_option("--host-json", run.host.host_json, "Host facts written by --write-host (instead of probing now)");
    cmd->add_option("--write-host", run.write_host, "Probe now, write the host facts with the run's date and id to this file, and exit");
    cmd->add_option("--sysroot", run.host.sysroot, "Probe a recorded machine from this folder (a replay)");
    cmd->add_option("--tool-path", run.host.tool_path, "PATH for the probe's tools (a recording's bin/)");
    cmd->add_option("--probe-runtime", run.host.probe_runtime, "KIND=BINARY: let this runtime name the device (KIND: a suite runtime kind, e.g. llama-bench, or llama.cpp)");
    cmd->add_option("--host-tag", run.host.host_tag, "Use this host tag instead of the probe's derived one ([a-z0-9-], no '_', at most 64 characters)");
    cmd->add_option("--results-dir", r.results_dir, "Folder of the results CSVs")->capture_default_str();
    cmd->add_flag("--no-record", run.no_record, "Measure and classify, but write no CSV row");
    cmd->add_option("--suffix", r.suffix, "CSV file-name suffix (<backend>_<host>_<date>_<suffix>.csv)");
    add_binary_option(cmd, run.binaries);
    cmd->add_option("--runtime-pin", run.pins, "RUNTIME=FILE: provenance JSON (commit, release) of a runtime build (repeatable)");
    add_forge_options(cmd, r.forge_dir, r.vocab_dir);
    cmd->add_flag("--list", run.list, "Print the suite's pairs and exit");
    cmd->add_flag("--gate", r.gate, "Gate each recorded row against its baseline (earlier CSVs in --history-dir)");
    cmd->add_option("--history-dir", r.history_dir,
                    "With --gate/--summary: earlier result CSVs to gate against (the committed baselines; empty: "
                    "--results-dir)")->capture_default_str();
    auto* baseline_ref = cmd->add_option("--baseline-ref", o->baseline_ref,
                    "With --gate/--summary: read baselines, thresholds and the suite as they are at this git ref (the "
                    "merge base; CMake passes -DPERFGATE_BASELINE_REF here), never HEAD itself")
        ->expected(0, 1);  // an empty value reaches the runner's check, which says what happened
    cmd->add_option("--thresholds-dir", r.thresholds_dir, "Folder with default.json and <host_tag>.json")->capture_default_str();
    cmd->add_flag("--summary", run.summary,
                  "Gate this run's rows (run id from --host-json) as a whole, print the report and exit");
    add_color_option(cmd, o->color);
    cmd->add_option("--summary-dir", run.summary_dir, "With --summary: write perf-gate.md, .junit.xml and .json here");
    cmd->add_flag("--require-backend", run.require_backend,
                  "With --write-host: fail (exit 1) when the host lacks the suite's backend, unless "
                  "PERFGATE_ALLOW_BACKEND_MISMATCH=1");
    cmd->add_option("--contention", run.contention,
                    "Contention guard: on (wait, then SKIP:contended), record (only write the contention column) or "
                    "off; default PERFGATE_CONTENTION, else on. Replays never read the machine");
    cmd->callback([o, baseline_ref] {
        if (baseline_ref->count() > 0) o->run.request.baseline_ref = o->baseline_ref;
        install_termination_handlers();  // ctest's timeout must not orphan the runtime
        o->run.request.color_log = color_on(o->color, 2);
        o->run.request.color_out = color_on(o->color, 1);
        exit_status = exit_of(runner::run_invocation(o->run, std::cout, std::cerr), "perfgate run");
    });
}

}  // namespace perfgate::cli
