// perfgate run: measures model/runtime pairs of a suite, classifies and records them.
// Under CTest each pair test calls `perfgate run --suite S --pair R/M --host-json F`, and the
// suite's setup test calls `perfgate run --suite S --write-host F` once when ctest starts.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>
#include <fstream>
#include <memory>
#include <sstream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/project_paths.hpp"
#include "perfgate/perf/fit.hpp"
#include "perfgate/perf/host_probe.hpp"
#include "perfgate/perf/launcher.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "perfgate/perf/suite.hpp"
#include "perfgate/perf/recorder.hpp"
#include "perfgate/probes/probe.hpp"
#include "perfgate/probes/runtime_kinds.hpp"
#include "perfgate/gates/adaptive.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/render.hpp"
#include "perfgate/gates/report.hpp"

namespace perfgate::cli {
namespace {

struct RunOptions {
    std::string suite;
    std::vector<std::string> pairs;
    std::string host_json;
    std::string write_host;
    std::string sysroot = "/";
    std::string tool_path;
    std::string probe_runtime;  // KIND=BINARY
    std::string host_tag;       // overrides the probe's derived tag
    std::string results_dir = "benchmarks";
    bool no_record = false;
    std::string suffix;
    std::vector<std::string> binaries;
    std::vector<std::string> pins;  // RUNTIME=FILE: provenance JSON of a runtime build
    std::string forge_dir = "build/forged";
#ifdef PERFGATE_DEFAULT_VOCAB_DIR
    std::string vocab_dir = PERFGATE_DEFAULT_VOCAB_DIR;
#else
    std::string vocab_dir;
#endif
    bool list = false;
    bool gate = false;
    bool summary = false;
    std::string summary_dir;
    std::string thresholds_dir = "thresholds";
    std::string history_dir;  // earlier CSVs to gate against; empty: the results folder
};

int fail_input(const std::string& message) {
    std::cerr << "perfgate run: " << message << '\n';
    return exit_code::usage;
}

// Gate options shared by a pair's own gate and the suite's summary. In a pull request the CI
// workflow sets PERFGATE_BASELINE_REF to the merge base, so baselines and thresholds are read as
// they are there (docs/ci.md).
gates::GateOptions gate_options(const RunOptions& o, const std::filesystem::path& benchmarks_dir,
                                const std::string& run_id) {
    gates::GateOptions g;
    g.benchmarks_dir = o.history_dir.empty() ? benchmarks_dir.string() : o.history_dir;
    g.thresholds_dir = o.thresholds_dir;
    if (const char* ref = std::getenv("PERFGATE_BASELINE_REF"); ref && *ref) g.baseline_ref = ref;
    g.exclude_run_id = run_id;
    return g;
}

// Each pair test gates its own row, so the failing test's name says which pair regressed. An
// inconclusive pair is run again (recorded, not gated) up to the workload's max_reruns before its
// verdict is final; the report says how many reruns it took.
perf::PairGate make_pair_gate(const RunOptions& o, const perf::Suite& suite, const perf::PairRequest& base) {
    return [&o, &suite, base](const ResultRow& row, const std::filesystem::path& csv, std::ostream& log) {
        auto options = gate_options(o, csv.parent_path(), row.run_id);
        options.report_missing = false;
        perf::PairRequest again = base;  // no gate: a rerun only adds samples
        again.runtime = row.runtime;
        again.model = row.model;
        auto more = [&](const gates::PairReport&, std::size_t rerun) -> Expected<std::vector<ResultRow>> {
            log << fmt::format("perfgate: {}/{}: inconclusive, rerun {} of at most {}\n", row.runtime, row.model, rerun,
                               suite.workload.max_reruns);
            std::ostringstream measurements;  // the first run's numbers are the test's measurements
            auto outcome = perf::run_pair(suite, again, log, measurements);
            if (!outcome) return outcome.error();
            if (!outcome->row || !outcome->status.ok()) return std::vector<ResultRow>{};
            return std::vector<ResultRow>{*outcome->row};
        };
        auto report = gates::gate_rows_adaptive({row}, options, suite.workload.max_reruns, more);
        if (!report) {
            log << "perfgate gate: " << report.error().message << '\n';
            return exit_code::usage;
        }
        log << gates::render_text(*report);
        return gates::exit_code(*report) == 0 ? exit_code::success : exit_code::regression;
    };
}

// The suite's summary (test perf.gate.<suite>, run after every pair): the whole run's rows against
// their baselines, printed, and written as markdown and JUnit for CI.
int run_summary(const RunOptions& o, const perf::Suite& suite, const perf::HostContext& host) {
    auto csv = perf::results_file(o.results_dir, host.backend, host.host_tag, host.date,
                                  o.suffix.empty() ? suite.results_suffix : o.suffix);
    if (!csv) return fail_input(csv.error().message);
    if (!std::filesystem::exists(*csv)) {
        std::cout << fmt::format("perfgate: no results file {} for run {}: every pair was skipped or none ran\n",
                                 csv->string(), host.run_id);
        return exit_code::skipped;
    }
    auto options = gate_options(o, csv->parent_path(), host.run_id);
    options.results = {csv->string()};
    auto report = gates::run_gate(options);
    if (!report) return fail_input(report.error().message);
    std::cout << gates::render_text(*report);
    if (!o.summary_dir.empty()) {
        std::filesystem::create_directories(o.summary_dir);
        const std::filesystem::path dir(o.summary_dir);
        for (auto [name, format] : {std::pair{"perf-gate.md", gates::ReportFormat::markdown},
                                    std::pair{"perf-gate.junit.xml", gates::ReportFormat::junit},
                                    std::pair{"perf-gate.json", gates::ReportFormat::json}}) {
            std::ofstream out(dir / name, std::ios::binary);
            out << gates::render(*report, format);
            if (!out) return fail_input((dir / name).string() + ": cannot write the gate report");
        }
        std::cout << "perfgate: gate reports in " << o.summary_dir << " (perf-gate.md, perf-gate.junit.xml, perf-gate.json)\n";
    }
    return gates::exit_code(*report) == 0 ? exit_code::success : exit_code::regression;
}

// A runtime build's provenance file (the embedded llama.cpp writes llama-pin.json): its full
// commit and release fill what the manifest leaves empty, since llama-bench prints a short hash.
Status apply_pin(perf::Suite& suite, const std::string& spec) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) return make_error("--runtime-pin wants RUNTIME=FILE, got \"" + spec + "\"");
    const std::string name = spec.substr(0, eq), file = spec.substr(eq + 1);
    perf::SuiteRuntime* rt = nullptr;
    for (auto& r : suite.runtimes)
        if (r.name == name) rt = &r;
    if (!rt) return make_error("--runtime-pin: the suite has no runtime named \"" + name + "\"");
    std::ifstream in(file);
    if (!in) return make_error(file + ": cannot read the runtime pin");
    const auto pin = nlohmann::json::parse(in, nullptr, false);
    if (pin.is_discarded() || !pin.is_object()) return make_error(file + ":1: not a JSON object");
    auto text = [&](const char* key) { return pin.contains(key) && pin[key].is_string() ? pin[key].get<std::string>() : std::string(); };
    if (rt->commit.empty()) rt->commit = text("commit");
    if (rt->version.empty()) rt->version = text("release");
    return Ok{};
}

// The probe options shared by --write-host and a direct run.
Expected<perf::HostProbeOptions> probe_options(const RunOptions& o) {
    perf::HostProbeOptions po;
    po.sysroot = o.sysroot;
    if (!o.tool_path.empty()) po.search_path = o.tool_path;
    if (!o.probe_runtime.empty()) {
        const auto eq = o.probe_runtime.find('=');
        if (eq == std::string::npos)
            return make_error("--probe-runtime wants KIND=BINARY (KIND: " + probes::runtime_kind_names() + ")");
        po.runtime_kind = o.probe_runtime.substr(0, eq);
        po.runtime_binary = o.probe_runtime.substr(eq + 1);
    }
    if (!o.host_tag.empty()) po.host_tag = o.host_tag;
    if (auto st = probes::check_probe_choices(po.runtime_kind, po.host_tag); !st) return st.error();
    return po;
}

int run(const RunOptions& o) {
    perf::install_termination_handlers();  // ctest's timeout must not orphan the runtime
    auto suite = perf::load_suite(o.suite);
    if (!suite) return fail_input(suite.error().message);
    for (const auto& pin : o.pins)
        if (auto st = apply_pin(*suite, pin); !st) return fail_input(st.error().message);
    if (o.list) {
        for (const auto& p : suite->pairs) std::cout << p.runtime << '/' << p.model << '\n';
        return exit_code::success;
    }

    if (!o.write_host.empty()) {
        Expected<perf::HostContext> host = make_error("");
        if (!o.host_json.empty()) {
            // A recorded host (a replay): its facts, stamped with this run's date and id.
            host = perf::read_host_context(o.host_json);
            if (host && host->replay.empty()) host->replay = o.host_json;
        } else {
            auto po = probe_options(o);
            if (!po) return fail_input(po.error().message);
            host = perf::probe_host_context(*po);
        }
        if (!host) return fail_input(host.error().message);
        host->date = perf::today();
        host->run_id = perf::new_run_id();
        if (auto st = perf::write_host_context(o.write_host, *host); !st) return fail_input(st.error().message);
        std::cout << fmt::format("host {} backend {} ({}), usable memory {}{}\n", host->host_tag, host->backend,
                                 host->device.empty() ? "no device name" : host->device,
                                 host->usable_memory_bytes ? perf::gib(*host->usable_memory_bytes) : "unknown",
                                 host->replay.empty() ? "" : ", REPLAYED from " + host->replay);
        return exit_code::success;
    }

    perf::HostContext host;
    if (!o.host_json.empty()) {
        auto read = perf::read_host_context(o.host_json);
        if (!read) return fail_input(read.error().message);
        host = *read;
    } else {
        auto po = probe_options(o);
        if (!po) return fail_input(po.error().message);
        auto probed = perf::probe_host_context(*po);
        if (!probed) return fail_input(probed.error().message);
        host = *probed;
    }
    if (host.date.empty()) host.date = perf::today();
    if (host.run_id.empty()) host.run_id = perf::new_run_id();
    if (o.summary) return run_summary(o, *suite, host);

    perf::PairRequest base;
    base.host = host;
    if (!o.no_record) base.results_dir = o.results_dir;
    base.suffix = o.suffix;
    base.forge_dir = o.forge_dir;
    base.project_root = find_project_root(o.suite).value_or(std::filesystem::path());
    base.vocab_dir = o.vocab_dir;
    for (const auto& b : o.binaries) {
        const auto eq = b.find('=');
        if (eq == std::string::npos || eq == 0) return fail_input("--binary wants RUNTIME=PATH, got \"" + b + "\"");
        base.binaries[b.substr(0, eq)] = b.substr(eq + 1);
    }
    if (o.gate) base.gate = make_pair_gate(o, *suite, base);

    std::vector<perf::SuitePair> selected;
    if (o.pairs.empty()) selected = suite->pairs;
    for (const auto& p : o.pairs) {
        const auto slash = p.find('/');
        if (slash == std::string::npos) return fail_input("--pair wants RUNTIME/MODEL, got \"" + p + "\"");
        selected.push_back({p.substr(0, slash), p.substr(slash + 1)});
    }

    int worst = exit_code::success;
    bool all_skipped = !selected.empty();
    for (const auto& p : selected) {
        perf::PairRequest req = base;
        req.runtime = p.runtime;
        req.model = p.model;
        auto outcome = perf::run_pair(*suite, req, std::cerr, std::cout);
        if (!outcome) return fail_input(outcome.error().message);
        const std::string where = outcome->csv.empty() ? "" : " -> " + outcome->csv.string();
        // The reason goes to stdout too: CTest keeps it in the test's output (LastTest.log, -V).
        std::cout << fmt::format("perfgate: {}/{}: {}{}{}\n", p.runtime, p.model, outcome->status.text,
                                 outcome->reason.empty() ? "" : " (" + outcome->reason + ")", where);
        if (outcome->exit_code == exit_code::regression) worst = exit_code::regression;
        if (outcome->exit_code != exit_code::skipped) all_skipped = false;
    }
    if (worst == exit_code::success && all_skipped) return exit_code::skipped;
    return worst;
}

}  // namespace

void add_run_command(CLI::App& app) {
    auto o = std::make_shared<RunOptions>();
    auto* cmd = app.add_subcommand("run", "Measure model/runtime pairs of a suite, classify and record them.\n"
                                          "Exit: 0 ok, 1 FAIL (or regression), 77 SKIP (reason printed), 2 usage or input error.");
    cmd->add_option("--suite", o->suite, "Suite manifest (perf/suites/<name>.json)")->required();
    cmd->add_option("--pair", o->pairs, "RUNTIME/MODEL to run (repeatable; default: every pair of the suite)");
    cmd->add_option("--host-json", o->host_json, "Host facts written by --write-host (instead of probing now)");
    cmd->add_option("--write-host", o->write_host, "Probe now, write the host facts with the run's date and id to this file, and exit");
    cmd->add_option("--sysroot", o->sysroot, "Probe a recorded machine from this folder (a replay)");
    cmd->add_option("--tool-path", o->tool_path, "PATH for the probe's tools (a recording's bin/)");
    cmd->add_option("--probe-runtime", o->probe_runtime, "KIND=BINARY: let this runtime name the device (KIND: a suite runtime kind, e.g. llama-bench, or llama.cpp)");
    cmd->add_option("--host-tag", o->host_tag, "Use this host tag instead of the probe's derived one ([a-z0-9-], no '_')");
    cmd->add_option("--results-dir", o->results_dir, "Folder of the results CSVs")->capture_default_str();
    cmd->add_flag("--no-record", o->no_record, "Measure and classify, but write no CSV row");
    cmd->add_option("--suffix", o->suffix, "CSV file-name suffix (<backend>_<host>_<date>_<suffix>.csv)");
    cmd->add_option("--binary", o->binaries, "RUNTIME=PATH: use this binary for a runtime of the suite (repeatable)");
    cmd->add_option("--runtime-pin", o->pins, "RUNTIME=FILE: provenance JSON (commit, release) of a runtime build (repeatable)");
    cmd->add_option("--forge-dir", o->forge_dir, "Cache folder of forged models")->capture_default_str();
    cmd->add_option("--vocab-dir", o->vocab_dir, "llama.cpp's models/ folder (tokenizers for the forge)");
    cmd->add_flag("--list", o->list, "Print the suite's pairs and exit");
    cmd->add_flag("--gate", o->gate, "Gate each recorded row against its baseline (earlier CSVs in --history-dir)");
    cmd->add_option("--history-dir", o->history_dir,
                    "With --gate/--summary: earlier result CSVs to gate against (default: --results-dir; the perf "
                    "presets pass the committed benchmarks/ while recording into the build folder)");
    cmd->add_option("--thresholds-dir", o->thresholds_dir, "Folder with default.json and <host_tag>.json")->capture_default_str();
    cmd->add_flag("--summary", o->summary,
                  "Gate this run's rows (run id from --host-json) as a whole, print the report and exit");
    cmd->add_option("--summary-dir", o->summary_dir, "With --summary: write perf-gate.md, .junit.xml and .json here");
    cmd->callback([o] { exit_status = run(*o); });
}

}  // namespace perfgate::cli
