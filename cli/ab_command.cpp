// perfgate ab: base and head builds of one runtime on the same models of a suite, in alternating
// rounds; exit 1 when a metric regressed (or a run failed), 0 otherwise, 2 for bad input (docs/ab.md).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common_options.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/file_write.hpp"
#include "perfgate/core/process.hpp"
#include "perfgate/gates/host_thresholds.hpp"
#include "perfgate/runner/ab.hpp"
#include "perfgate/runner/ab_render.hpp"
#include "perfgate/runner/host_setup.hpp"
#include "perfgate/runner/key_value.hpp"
#include "perfgate/runner/suite_run.hpp"

namespace perfgate::cli {
namespace {

struct AbOptions {
    std::string suite, base_binary, head_binary, thresholds_dir = "thresholds", format = "text", output;
    std::string summary_dir;  // ab.md, ab.junit.xml, ab.json
    std::string color = "auto";
    runner::HostSource host;
    runner::AbRequest request;
    std::string contention;  // on, record, off; empty: PERFGATE_CONTENTION
    bool no_record = false;
    std::string replay;      // --replay FILE: judge an A/B run's recorded rows, launch nothing
    std::string reading = "median";  // --launch-reading
};

// The report goes to --output (whole or not at all; the verdict still reaches the log) or stdout,
// and to --summary-dir.
int deliver(const AbOptions& o, const runner::AbReport& report, runner::AbFormat format) {
    const std::string text = runner::render_ab(report, format, o.output.empty() && color_on(o.color, 1));
    if (o.output.empty()) std::cout << text;
    else if (auto st = replace_file(o.output, text); !st) return usage_error("perfgate ab", st.error());
    else std::cerr << runner::render_ab(report, runner::AbFormat::text, color_on(o.color, 2));
    if (o.summary_dir.empty()) return exit_of(runner::ab_outcome(report));
    if (auto st = runner::write_ab_summary(report, o.summary_dir); !st) return usage_error("perfgate ab", st.error());
    std::cerr << "perfgate ab: reports in " << o.summary_dir << " (ab.md, ab.junit.xml, ab.json)\n";
    return exit_of(runner::ab_outcome(report));
}

int run_ab_command(AbOptions& o) {
    install_termination_handlers();
    const auto usage = [](const Error& e) { return usage_error("perfgate ab", e); };
    const auto format = runner::ab_format_from_string(o.format);
    if (!format) return usage(make_error("unknown --format " + o.format + " (text, markdown, json, junit)"));
    if (auto st = o.summary_dir.empty() ? Status(Ok{}) : runner::prepare_ab_summary_dir(o.summary_dir); !st) return usage(st.error());
    o.request.reading = *runner::launch_reading_from_string(o.reading);  // the option's check read the word
    if (!o.replay.empty()) {
        auto replayed = runner::replay_ab_file(o.replay, o.thresholds_dir, o.request.stop, o.request.alpha, o.request.reading);
        return replayed ? deliver(o, *replayed, *format) : usage(replayed.error());
    }
    auto& r = o.request;
    if (o.suite.empty()) return usage(make_error("--suite, --base-binary and --head-binary are required (or --replay FILE)"));
    if (auto st = runner::set_ab_binaries(r, o.base_binary, o.head_binary); !st) return usage(st.error());
    if (o.no_record) r.results_dir.clear();
    auto contention = o.contention.empty() ? perf::contention_mode_from_environment()
                                           : perf::parse_contention_mode(o.contention, "--contention");
    if (!contention) return usage(contention.error());
    r.contention = *contention;
    // No --runtime-pin: a pin describes one build, the arms are two (each row has its binary's commit).
    auto suite = runner::load_suite_with_pins(o.suite, {});
    if (!suite) return usage(suite.error());
    auto host = runner::resolve_host(o.host);
    if (!host) return usage(host.error());
    auto thresholds = gates::load_host_thresholds(o.thresholds_dir, host->host);
    if (!thresholds) return usage(thresholds.error());
    r.thresholds = thresholds->set;
    auto report = runner::run_ab(*suite, *host, r, std::cerr);
    if (!report) return usage(report.error());
    report->notes.insert(report->notes.end(), thresholds->notes.begin(), thresholds->notes.end());
    return deliver(o, *report, *format);
}

}  // namespace

void add_ab_command(CLI::App& app) {
    auto o = std::make_shared<AbOptions>();
    auto& r = o->request;
    auto* cmd = app.add_subcommand(
        "ab", "Interleaved A/B: run a base and a head build of one runtime on the suite's models in alternating "
              "rounds (ABBA BAAB ...) and decide per metric on the paired ratios.\n"
              "Exit: 0 no regression (unchanged, improved, or inconclusive: printed as INCONCLUSIVE, not PASS), 1 a "
              "metric regressed or a run failed, 2 usage or input error (before anything runs), 77 every model "
              "skipped (printed as SKIPPED: nothing measured).");
    cmd->add_option("--suite", o->suite, "Suite manifest (perf/suites/<name>.json); required unless --replay");
    cmd->add_option("--base-binary", o->base_binary, "RUNTIME=PATH: the base build of a runtime of the suite; required unless --replay");
    cmd->add_option("--head-binary", o->head_binary, "RUNTIME=PATH: the head build of the same runtime; required unless --replay");
    cmd->add_option("--replay", o->replay, "An A/B run's recorded CSV (one run): judge its rows again under these "
                    "thresholds, --alpha and rounds, looking after each round as a live run does; nothing is launched");
    cmd->add_option("--model", r.models, "Model of the suite to compare (repeatable; default: every model paired with RUNTIME)");
    cmd->add_option("--repetitions", r.repetitions, "Repetitions per launch (default: the suite's workload)")->check(CLI::Range(1, 1000));
    cmd->add_option("--launch-reading", o->reading, "A launch's reading: the median of its repetitions, or the best one (docs/ab.md)")
        ->capture_default_str()->check([](const std::string& w) { return runner::launch_reading_from_string(w) ? "" : "median or best, not " + w; });
    cmd->add_option("--min-rounds", r.stop.min_rounds, "Rounds before an early stop is allowed")->capture_default_str()->check(CLI::Range(2, 1000));
    cmd->add_option("--max-rounds", r.stop.max_rounds, "Most rounds per model")->capture_default_str()->check(CLI::Range(2, 1000));
    cmd->add_option("--alpha", r.alpha, "False-alarm rate of the whole run, split over its models, metrics and looks (Haybittle-Peto)")
        ->capture_default_str()->check(CLI::Range(1e-6, 0.2));
    cmd->add_option("--thresholds-dir", o->thresholds_dir, "Folder with default.json and <host_tag>.json: each metric's floor is its ab_max_drop (else max_drop)")
        ->capture_default_str();
    cmd->add_option("--results-dir", r.results_dir, "Folder of the A/B results CSV (keep it out of benchmarks/: A/B rows are no baseline)")
        ->capture_default_str();
    cmd->add_option("--suffix", r.suffix, "CSV file-name suffix (<backend>_<host>_<date>_<suffix>.csv)")->capture_default_str();
    cmd->add_flag("--no-record", o->no_record, "Write no CSV rows");
    cmd->add_option("--host-json", o->host.host_json, "Host facts written by perfgate run --write-host (instead of probing now)");
    cmd->add_option("--contention", o->contention, "Contention guard, as in perfgate run: on (wait, then "
                    "SKIP:contended), record or off; default PERFGATE_CONTENTION, else on");
    add_forge_options(cmd, r.forge_dir, r.vocab_dir);
    add_report_options(cmd, o->format, o->output, o->color, "text | markdown | json | junit");
    cmd->add_option("--summary-dir", o->summary_dir, "Also write the report as ab.md, ab.junit.xml and ab.json in this folder (created if missing)");
    cmd->callback([o] { exit_status = run_ab_command(*o); });
}

}  // namespace perfgate::cli
