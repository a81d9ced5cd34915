// perfgate run: measures model/runtime pairs of a suite, classifies and records them.
// Under CTest each pair test calls `perfgate run --suite S --pair R/M --host-json F`, and the
// suite's setup test calls `perfgate run --suite S --write-host F` once when ctest starts.
// The work is runner::run_suite_pairs / run_summary; this file parses options and maps outcomes.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common_options.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/process.hpp"
#include "perfgate/core/project_paths.hpp"
#include "perfgate/perf/backend_check.hpp"
#include "perfgate/perf/contention_guard.hpp"
#include "perfgate/runner/host_setup.hpp"
#include "perfgate/runner/key_value.hpp"
#include "perfgate/runner/suite_run.hpp"

namespace perfgate::cli {
namespace {

struct RunOptions {
    std::string suite, write_host, summary_dir;
    std::vector<std::string> pairs, binaries, pins;
    runner::HostSource host;
    runner::SuiteRunRequest request;
    bool no_record = false, list = false, summary = false, require_backend = false;
    std::string contention;  // on, record, off; empty: PERFGATE_CONTENTION
    std::string color = "auto";
};

int run(RunOptions& o) {
    install_termination_handlers();  // ctest's timeout must not orphan the runtime
    const auto usage = [](const Error& e) { return usage_error("perfgate run", e); };
    auto suite = runner::load_suite_with_pins(o.suite, o.pins);
    if (!suite) return usage(suite.error());
    if (o.list) {
        for (const auto& p : suite->pairs) std::cout << p.runtime << '/' << p.model << '\n';
        return exit_code::success;
    }
    if (!o.write_host.empty()) {
        if (o.require_backend && !perf::backend_mismatch_allowed_by_environment()) {
            auto host = runner::resolve_host(o.host);
            if (!host) return usage(host.error());
            if (auto st = perf::require_suite_backend(*suite, *host); !st) {
                std::cerr << "perfgate run: " << st.error().message << '\n';
                return exit_code::regression;  // a failure, not a skip: the setup test must go red
            }
        }
        auto st = runner::write_host_file(o.host, o.write_host, std::cout);
        return st ? exit_code::success : usage(st.error());
    }
    auto host = runner::resolve_host(o.host);
    if (!host) return usage(host.error());
    o.request.color_log = color_on(o.color, 2);
    o.request.color_out = color_on(o.color, 1);
    if (o.summary) return exit_of(runner::run_summary(*suite, *host, o.request, o.summary_dir, std::cout), "perfgate run");
    if (o.no_record) o.request.results_dir.clear();
    for (const auto& b : o.binaries) {
        auto kv = runner::split_key_value(b, "--binary", "RUNTIME=PATH");
        if (!kv) return usage(kv.error());
        o.request.binaries[kv->first] = kv->second;
    }
    auto contention = o.contention.empty() ? perf::contention_mode_from_environment()
                                           : perf::parse_contention_mode(o.contention, "--contention");
    if (!contention) return usage(contention.error());
    o.request.contention = *contention;
    o.request.project_root = find_project_root(o.suite).value_or(std::filesystem::path());
    // The forge cache lives in the perfgate build folder (the runtime's own sub-build has a
    // CMakeCache.txt too, so the binary's path would find the wrong one).
    o.request.build_root = find_build_root(o.request.forge_dir).value_or(std::filesystem::path());
    auto selected = runner::parse_pair_selection(o.pairs);
    if (!selected) return usage(selected.error());
    o.request.pairs = *selected;
    return exit_of(runner::run_suite_pairs(*suite, *host, o.request, std::cerr, std::cout), "perfgate run");
}

}  // namespace

void add_run_command(CLI::App& app) {
    auto o = std::make_shared<RunOptions>();
    auto& r = o->request;
    auto* cmd = app.add_subcommand("run", "Measure model/runtime pairs of a suite, classify and record them.\n"
                                          "Exit: 0 ok, 1 FAIL (or regression), 77 SKIP (reason printed), 2 usage or input error.");
    cmd->add_option("--suite", o->suite, "Suite manifest (perf/suites/<name>.json)")->required();
    cmd->add_option("--pair", o->pairs, "RUNTIME/MODEL to run (repeatable; default: every pair of the suite)");
    cmd->add_option("--host-json", o->host.host_json, "Host facts written by --write-host (instead of probing now)");
    cmd->add_option("--write-host", o->write_host, "Probe now, write the host facts with the run's date and id to this file, and exit");
    cmd->add_option("--sysroot", o->host.sysroot, "Probe a recorded machine from this folder (a replay)");
    cmd->add_option("--tool-path", o->host.tool_path, "PATH for the probe's tools (a recording's bin/)");
    cmd->add_option("--probe-runtime", o->host.probe_runtime, "KIND=BINARY: let this runtime name the device (KIND: a suite runtime kind, e.g. llama-bench, or llama.cpp)");
    cmd->add_option("--host-tag", o->host.host_tag, "Use this host tag instead of the probe's derived one ([a-z0-9-], no '_', at most 64 characters)");
    cmd->add_option("--results-dir", r.results_dir, "Folder of the results CSVs")->capture_default_str();
    cmd->add_flag("--no-record", o->no_record, "Measure and classify, but write no CSV row");
    cmd->add_option("--suffix", r.suffix, "CSV file-name suffix (<backend>_<host>_<date>_<suffix>.csv)");
    add_binary_option(cmd, o->binaries);
    cmd->add_option("--runtime-pin", o->pins, "RUNTIME=FILE: provenance JSON (commit, release) of a runtime build (repeatable)");
    add_forge_options(cmd, r.forge_dir, r.vocab_dir);
    cmd->add_flag("--list", o->list, "Print the suite's pairs and exit");
    cmd->add_flag("--gate", r.gate, "Gate each recorded row against its baseline (earlier CSVs in --history-dir)");
    cmd->add_option("--history-dir", r.history_dir,
                    "With --gate/--summary: earlier result CSVs to gate against (default: --results-dir; the perf "
                    "presets pass the committed benchmarks/ while recording into the build folder)");
    cmd->add_option("--thresholds-dir", r.thresholds_dir, "Folder with default.json and <host_tag>.json")->capture_default_str();
    cmd->add_flag("--summary", o->summary,
                  "Gate this run's rows (run id from --host-json) as a whole, print the report and exit");
    add_color_option(cmd, o->color);
    cmd->add_option("--summary-dir", o->summary_dir, "With --summary: write perf-gate.md, .junit.xml and .json here");
    cmd->add_flag("--require-backend", o->require_backend,
                  "With --write-host: fail (exit 1) when the host lacks the suite's backend, unless "
                  "PERFGATE_ALLOW_BACKEND_MISMATCH=1");
    cmd->add_option("--contention", o->contention,
                    "Contention guard: on (wait, then SKIP:contended), record (only write the contention column) or "
                    "off; default PERFGATE_CONTENTION, else on. Replays never read the machine");
    cmd->callback([o] { exit_status = run(*o); });
}

}  // namespace perfgate::cli
