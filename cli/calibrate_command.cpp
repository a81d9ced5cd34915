// perfgate calibrate: runs a suite K times unchanged on this host (A/A), estimates every pair's
// run-to-run noise and writes thresholds/<host_tag>.json with thresholds that hold a target
// false-alarm rate. Orchestration only: the runs are perf's run_pair, the statistics gates/calibrate.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/process.hpp"
#include "perfgate/gates/calibrate.hpp"
#include "perfgate/gates/calibrate_history.hpp"
#include "perfgate/gates/thresholds.hpp"
#include "perfgate/perf/host_probe.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::cli {
namespace {

struct CalibrateOptions {
    std::string suite;
    std::vector<std::string> pairs;
    std::size_t runs = 8;
    double target_false_alarm = 0.01;
    double power = 0.95;
    std::size_t repetitions = 0;  // 0: the suite's workload repetitions
    std::string output;           // default: <thresholds-dir>/<host_tag>.json
    std::string thresholds_dir = "thresholds";
    std::string host_json;
    std::vector<std::string> binaries;
    std::string forge_dir = "build/forged";
#ifdef PERFGATE_DEFAULT_VOCAB_DIR
    std::string vocab_dir = PERFGATE_DEFAULT_VOCAB_DIR;
#else
    std::string vocab_dir;
#endif
    std::string results_dir;  // empty: the calibration runs are not recorded
    bool from_history = false;
    std::string benchmarks_dir = "benchmarks";
    std::string host;          // --from-history: the host tag (default: this host's, probed)
    std::size_t history_runs = 30;
    std::size_t min_runs = 5;
    std::size_t baseline_window = 1;
};

int fail(const std::string& message) {
    std::cerr << "perfgate calibrate: " << message << '\n';
    return exit_code::usage;
}

// The policy the calibration starts from: thresholds/default.json alone (or the built-in defaults),
// never an earlier host file, so recalibrating does not ratchet on its own output.
Expected<gates::ThresholdSet> base_thresholds(const std::string& dir) {
    gates::ThresholdSet set;
    const std::filesystem::path file = std::filesystem::path(dir) / "default.json";
    std::ifstream in(file);
    if (!in) {
        set.add_layer(gates::builtin_default_thresholds());
        return set;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = gates::parse_threshold_file(text.str(), file.string());
    if (!parsed) return parsed.error();
    set.add_layer(std::move(*parsed));
    return set;
}

// Writes a calibrated thresholds file over `output`, keeping the measured memory bandwidth of the
// file it replaces (calibration knows nothing about it); written only after it parses back, since
// the gate must be able to load what calibrate writes.
Status write_thresholds(std::string text, const std::string& output) {
    if (std::ifstream old(output, std::ios::binary); old) {
        std::stringstream previous;
        previous << old.rdbuf();
        auto parsed = gates::parse_threshold_file(previous.str(), output);
        if (!parsed) return make_error(parsed.error().message + " (the file calibrate would replace; fix or remove it)");
        if (parsed->memory_bandwidth) text = gates::with_memory_bandwidth(text, *parsed->memory_bandwidth);
    }
    if (auto check = gates::parse_threshold_file(text, output); !check) return make_error("internal: " + check.error().message);
    std::ofstream out(output, std::ios::trunc);
    out << text;
    if (!out) return make_error(output + ": cannot write");
    return Ok{};
}

// --from-history: no runs, the host's result CSVs are the evidence.
int calibrate_history(const CalibrateOptions& o) {
    auto base = base_thresholds(o.thresholds_dir);
    if (!base) return fail(base.error().message);
    std::string host = o.host;
    if (host.empty()) {
        perf::HostProbeOptions po;
        po.thresholds_dir = o.thresholds_dir;
        auto probed = perf::probe_host_context(po);
        if (!probed) return fail(probed.error().message);
        host = probed->host_tag;
    }
    gates::HistoryCalibrationOptions ho;
    ho.history_runs = o.history_runs;
    ho.rule.min_runs = o.min_runs;
    ho.rule.baseline_window = o.baseline_window;
    ho.rule.power = o.power;
    auto pairs = gates::calibrate_from_history(o.benchmarks_dir, host, *base, ho);
    if (!pairs) return fail(pairs.error().message);
    if (pairs->empty()) return fail(fmt::format("{}: no ok run of host {} to calibrate from", o.benchmarks_dir, host));
    std::cout << gates::render_history_calibration_report(host, *pairs, ho);
    const bool any = std::any_of(pairs->begin(), pairs->end(), [](const auto& p) { return p.calibrated; });
    if (!any)
        return fail(fmt::format("host {}: no pair has {} runs yet; run the suite more often (nothing written)", host,
                                o.min_runs));
    const std::string text = gates::render_history_thresholds(host, perf::today(), *pairs, ho);
    const std::string output =
        o.output.empty() ? (std::filesystem::path(o.thresholds_dir) / (host + ".json")).string() : o.output;
    if (auto written = write_thresholds(text, output); !written) return fail(written.error().message);
    std::cout << "wrote " << output << '\n';
    return exit_code::success;
}

int calibrate(const CalibrateOptions& o) {
    install_termination_handlers();
    if (o.from_history == !o.suite.empty()) return fail("give either --suite (run an A/A campaign) or --from-history");
    if (!(o.power > 0.5 && o.power < 1)) return fail("--power must be in (0.5, 1)");
    if (o.from_history) return calibrate_history(o);
    if (o.runs < 3) return fail("--runs must be at least 3 (noise needs 3 readings per pair)");
    if (!(o.target_false_alarm > 0 && o.target_false_alarm <= 0.5)) return fail("--target-false-alarm must be in (0, 0.5]");
    if (!(o.power > 0.5 && o.power < 1)) return fail("--power must be in (0.5, 1)");
    auto suite = perf::load_suite(o.suite);
    if (!suite) return fail(suite.error().message);
    auto base = base_thresholds(o.thresholds_dir);
    if (!base) return fail(base.error().message);

    perf::HostContext host;
    if (!o.host_json.empty()) {
        auto read = perf::read_host_context(o.host_json);
        if (!read) return fail(read.error().message);
        host = *read;
    } else {
        perf::HostProbeOptions po;
        po.thresholds_dir = o.thresholds_dir;
        auto probed = perf::probe_host_context(po);
        if (!probed) return fail(probed.error().message);
        host = *probed;
    }
    if (host.date.empty()) host.date = perf::today();
    if (host.run_id.empty()) host.run_id = perf::new_run_id();

    perf::PairRequest request;
    request.host = host;
    request.results_dir = o.results_dir;
    request.suffix = o.results_dir.empty() ? "" : "calibration";
    request.forge_dir = o.forge_dir;
    request.vocab_dir = o.vocab_dir;
    for (const auto& b : o.binaries) {
        const auto eq = b.find('=');
        if (eq == std::string::npos || eq == 0) return fail("--binary wants RUNTIME=PATH, got \"" + b + "\"");
        request.binaries[b.substr(0, eq)] = b.substr(eq + 1);
    }
    std::vector<perf::SuitePair> selected;
    if (o.pairs.empty()) selected = suite->pairs;
    for (const auto& p : o.pairs) {
        const auto slash = p.find('/');
        if (slash == std::string::npos) return fail("--pair wants RUNTIME/MODEL, got \"" + p + "\"");
        selected.push_back({p.substr(0, slash), p.substr(slash + 1)});
    }

    // Runs are interleaved (every pair once per round) so that a slow drift of the host's load
    // spreads over all pairs instead of biasing one.
    std::vector<ResultRow> rows;
    std::vector<bool> skipped(selected.size(), false);
    for (std::size_t run = 1; run <= o.runs; ++run) {
        for (std::size_t i = 0; i < selected.size(); ++i) {
            if (skipped[i]) continue;
            perf::PairRequest req = request;
            req.runtime = selected[i].runtime;
            req.model = selected[i].model;
            std::ostringstream measurements;  // CTest measurement lines are not wanted here
            auto outcome = perf::run_pair(*suite, req, std::cerr, measurements);
            if (!outcome) return fail(outcome.error().message);
            std::cerr << fmt::format("perfgate calibrate: run {}/{} {}/{}: {}{}\n", run, o.runs, req.runtime, req.model,
                                     outcome->status.text, outcome->reason.empty() ? "" : " (" + outcome->reason + ")");
            if (outcome->exit_code == exit_code::skipped) {
                skipped[i] = true;  // does not fit or no backend: nothing to calibrate
                continue;
            }
            if (outcome->row) rows.push_back(*outcome->row);
        }
    }
    if (rows.empty()) return fail("no pair of the suite ran on this host; nothing to calibrate");

    gates::CalibrationOptions co;
    co.target_false_alarm = o.target_false_alarm;
    co.power = o.power;
    co.repetitions = o.repetitions ? o.repetitions : static_cast<std::size_t>(suite->workload.repetitions);
    auto calibrated = gates::calibrate_rows(rows, *base, co);
    if (!calibrated) return fail(calibrated.error().message);

    gates::CalibrationRun info;
    info.suite = suite->name;
    info.host_tag = host.host_tag;
    info.date = host.date;
    info.runs = o.runs;
    info.options = co;
    const std::string text = gates::render_calibrated_thresholds(info, *calibrated);
    const std::string output = o.output.empty() ? (std::filesystem::path(o.thresholds_dir) / (host.host_tag + ".json")).string() : o.output;
    if (auto written = write_thresholds(text, output); !written) return fail(written.error().message);
    std::cout << gates::render_calibration_report(info, *calibrated);
    std::cout << "wrote " << output << '\n';
    return exit_code::success;
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
    auto o = std::make_shared<CalibrateOptions>();
    auto* cmd = app.add_subcommand("calibrate",
                                   "Write thresholds/<host_tag>.json from each pair's noise: from the host's history in "
                                   "benchmarks/ (--from-history), or by running a suite K times unchanged (--suite).\n"
                                   "Exit: 0 written, 2 usage or input error.");
    cmd->add_option("--suite", o->suite, "Suite manifest (perf/suites/<name>.json): run an A/A campaign");
    cmd->add_flag("--from-history", o->from_history,
                  "No runs: calibrate from the host's result CSVs in --benchmarks-dir (each pair's between-run noise)");
    cmd->add_option("--benchmarks-dir", o->benchmarks_dir, "With --from-history: the result CSVs")->capture_default_str();
    cmd->add_option("--host", o->host, "With --from-history: the host tag (default: this host's)");
    cmd->add_option("--history-runs", o->history_runs, "With --from-history: latest runs per pair")
        ->capture_default_str()->check(CLI::Range(3, 1000));
    cmd->add_option("--min-runs", o->min_runs, "With --from-history: runs a pair needs to be calibrated")
        ->capture_default_str()->check(CLI::Range(3, 1000));
    cmd->add_option("--baseline-window", o->baseline_window, "With --from-history: latest runs forming the baseline level")
        ->capture_default_str()->check(CLI::Range(1, 100));
    cmd->add_option("--pair", o->pairs, "RUNTIME/MODEL to calibrate (repeatable; default: every pair of the suite)");
    cmd->add_option("--runs", o->runs, "Unchanged runs of every pair (at least 3)")->capture_default_str();
    cmd->add_option("--target-false-alarm", o->target_false_alarm, "False-alarm rate to hold per metric decision")
        ->capture_default_str();
    cmd->add_option("--power", o->power, "Detection probability behind the stated minimum detectable effect")
        ->capture_default_str();
    cmd->add_option("--repetitions", o->repetitions, "Repetitions per side the gate will see (default: the suite's)");
    cmd->add_option("--output", o->output, "Thresholds file to write (default: <thresholds-dir>/<host_tag>.json)");
    cmd->add_option("--thresholds-dir", o->thresholds_dir, "Folder with default.json")->capture_default_str();
    cmd->add_option("--host-json", o->host_json, "Host facts written by perfgate run --write-host (instead of probing)");
    cmd->add_option("--binary", o->binaries, "RUNTIME=PATH: use this binary for a runtime of the suite (repeatable)");
    cmd->add_option("--forge-dir", o->forge_dir, "Cache folder of forged models")->capture_default_str();
    cmd->add_option("--vocab-dir", o->vocab_dir, "llama.cpp's models/ folder (tokenizers for the forge)");
    cmd->add_option("--results-dir", o->results_dir, "Also record the calibration runs here (suffix \"calibration\")");
    cmd->callback([o] { exit_status = calibrate(*o); });
}

}  // namespace perfgate::cli
