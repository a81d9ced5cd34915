// perfgate calibrate: thresholds/<host_tag>.json from each pair's noise, read off the host's own
// runs (--from-history) or measured by running a suite K times unchanged (--suite, an A/A
// campaign). The work is runner::calibrate_from_history / calibrate_by_campaign (runner/calibrate.hpp).
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common_options.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/process.hpp"
#include "perfgate/runner/calibrate.hpp"

namespace perfgate::cli {
namespace {

// --output, --thresholds-dir and --power serve both modes; each mode's own options go straight
// into its request.
struct CalibrateOptions {
    runner::HistoryCalibrationRequest history;
    runner::CampaignCalibrationRequest campaign;
    std::string suite, output, thresholds_dir = "thresholds";
    bool from_history = false;
    double power = 0.95;
};

int calibrate(CalibrateOptions& o) {
    install_termination_handlers();
    if (o.from_history == !o.suite.empty())
        return usage_error("perfgate calibrate", make_error("give either --suite (run an A/A campaign) or --from-history"));
    Expected<std::filesystem::path> written = make_error("");
    if (o.from_history) {
        auto& r = o.history;
        r.output = o.output;
        r.thresholds_dir = o.thresholds_dir;
        r.options.rule.power = o.power;
        written = runner::calibrate_from_history(r, std::cout);
    } else {
        auto& r = o.campaign;
        r.output = o.output;
        r.thresholds_dir = r.host.thresholds_dir = o.thresholds_dir;
        r.options.power = o.power;
        r.suite = o.suite;
        written = runner::calibrate_by_campaign(r, std::cerr, std::cout);
    }
    if (!written) return usage_error("perfgate calibrate", written.error());
    std::cout << "wrote " << written->string() << '\n';
    return exit_code::success;
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
    auto o = std::make_shared<CalibrateOptions>();
    auto& h = o->history;
    auto& c = o->campaign;
    auto* cmd = app.add_subcommand("calibrate",
                                   "Write thresholds/<host_tag>.json from each pair's noise: from the host's history in "
                                   "benchmarks/ (--from-history), or by running a suite K times unchanged (--suite).\n"
                                   "Exit: 0 written, 2 usage or input error.");
    cmd->add_option("--suite", o->suite, "Suite manifest (perf/suites/<name>.json): run an A/A campaign");
    cmd->add_flag("--from-history", o->from_history,
                  "No runs: calibrate from the host's result CSVs in --benchmarks-dir (each pair's between-run noise)");
    cmd->add_option("--benchmarks-dir", h.benchmarks_dir, "With --from-history: the result CSVs")->capture_default_str();
    cmd->add_option("--host", h.host, "With --from-history: the host tag (default: this host's)");
    cmd->add_option("--history-runs", h.options.history_runs, "With --from-history: latest runs per pair")
        ->capture_default_str()->check(CLI::Range(3, 1000));
    cmd->add_option("--min-runs", h.options.rule.min_runs, "With --from-history: runs a pair needs to be calibrated")
        ->capture_default_str()->check(CLI::Range(3, 1000));
    cmd->add_flag("--measured-floors", h.options.measured_floors, "With --from-history: each pair's floor is its deepest "
                  "unchanged dip, no lower than the metric's A/B floor, instead of no lower than default.json's max_drop");
    cmd->add_option("--reference-runs", h.options.rule.reference.runs,
                    "With --from-history: runs forming the reference level")
        ->capture_default_str()->check(CLI::Range(1, 100));
    cmd->add_option("--pair", c.pairs, "RUNTIME/MODEL to calibrate (repeatable; default: every pair of the suite)");
    cmd->add_option("--runs", c.runs, "Unchanged runs of every pair")->capture_default_str()->check(CLI::Range(3, 1000));
    cmd->add_option("--target-false-alarm", c.options.target_false_alarm, "False-alarm rate to hold per metric decision")
        ->capture_default_str()->check(CLI::Range(1e-6, 0.5));
    add_power_option(cmd, o->power);
    cmd->add_option("--repetitions", c.options.repetitions, "Repetitions per side the gate will see (default: the suite's)");
    cmd->add_option("--output", o->output, "Thresholds file to write (default: <thresholds-dir>/<host_tag>.json)");
    cmd->add_option("--thresholds-dir", o->thresholds_dir, "Folder with default.json")->capture_default_str();
    cmd->add_option("--host-json", c.host.host_json, "Host facts written by perfgate run --write-host (instead of probing now)");
    add_binary_option(cmd, c.binaries);
    add_forge_options(cmd, c.forge_dir, c.vocab_dir);
    cmd->add_option("--results-dir", c.results_dir, "Also record the calibration runs here (suffix \"calibration\")");
    cmd->callback([o] { exit_status = calibrate(*o); });
}

}  // namespace perfgate::cli
