// `perfgate gate`: judges result CSVs against their baselines; exit 0 pass, 1 regressed/failed, 2 bad input.
// The work is runner::gate_files; this file declares the options and hands the report on.
#include <filesystem>
#include <memory>

#include "commands.hpp"
#include "common_options.hpp"
#include "outcome_exit.hpp"
#include "report_output.hpp"
#include "perfgate/gates/render.hpp"
#include "perfgate/runner/gate_files.hpp"

namespace perfgate::cli {
namespace {

struct GateArgs {
    runner::GateFilesRequest request;
    std::string baseline_ref;
    std::string format = "text";
    std::string color = "auto";
    std::string show = "changed";
    std::string output;
};

int run_gate_command(GateArgs& args, bool baseline_ref_given) {
    auto format = gates::report_format_from_string(args.format);
    if (!format) return usage_error("perfgate gate", make_error("unknown --format " + args.format));
    if (baseline_ref_given) args.request.baseline_ref = args.baseline_ref;
    std::error_code ec;
    args.request.start_dir = std::filesystem::current_path(ec);
    auto report = runner::gate_files(args.request);
    if (!report) return usage_error("perfgate gate", report.error());
    return emit_gate_report(*report, *format, args.output, "perfgate gate", args.color, args.show);
}

}  // namespace

void add_gate_command(CLI::App& app) {
    auto args = std::make_shared<GateArgs>();
    auto& r = args->request;
    auto& o = r.options;
    auto* cmd = app.add_subcommand("gate", "Fail a run that regressed against its baseline (exit 0 pass, 1 regressed or failed, 2 bad input)");
    add_results_option(cmd, o.results,
                       "Result file to judge (repeatable): a perfgate or mlxcel CSV, llama-bench's own -o json, -o jsonl, "
                       "-o csv or -o sql output, or a vLLM or SGLang serving result file (with --host: they name no host)")
        ->required();
    cmd->add_option("--baseline", r.baseline, "Baseline CSV; default: the latest earlier CSV of the same backend/runtime and host");
    cmd->add_option("--benchmarks-dir", r.benchmarks_dir,
                    "Folder of earlier result CSVs (must exist); default: benchmarks/ of the project root, the nearest "
                    "folder from the working directory upwards holding benchmarks/ or thresholds/");
    cmd->add_option("--thresholds-dir", r.thresholds_dir,
                    "Folder with default.json and <host_tag>.json (must exist); default: thresholds/ of the project root");
    cmd->add_flag("--allow-empty", r.allow_empty,
                  "Pass a run that compared nothing (every pair new, skipped or missing, or no pairs); without it "
                  "such a run fails (exit 1)");
    auto* baseline_ref = cmd->add_option("--baseline-ref", args->baseline_ref,
                    "Read benchmarks and thresholds as they are at this git ref (e.g. the merge base), so a change cannot "
                    "loosen its own gate; a pair ok in the baseline that is missing or skipped now then fails, unless "
                    "the --suite at the ref lacks it too (must not be empty)")
        // Zero or one value, so that an empty one reaches runner::gate_files' check (CLI11 would
        // otherwise answer "1 required TEXT missing", which does not say what happened).
        ->expected(0, 1);
    cmd->add_option("--suite", r.suite,
                    "With --baseline-ref: the suite manifest, read as it is at the ref; its pairs are the ones a "
                    "run may not drop (without it every missing or skipped pair that was ok fails)");
    add_report_options(cmd, args->format, args->output, args->color, "text | markdown | junit | json");
    add_show_option(cmd, args->show);
    cmd->add_option("--catalog", r.catalog, "Model alias catalog (TSV with local_name and aliases columns)");
    add_prompt_tolerance_option(cmd, o.prompt_tolerance);
    cmd->add_option("--max-date-gap-days", o.max_date_gap_days,
                    "Cross-runtime comparisons: most calendar days between the two readings")->capture_default_str();
    cmd->add_option("--host", o.host, "Host tag of the results (default: from the rows or the file name)");
    cmd->add_option("--test", r.test,
                    "Within-run test of the fallback rule (short history): welch-t | mann-whitney-u")->capture_default_str();
    cmd->add_option("--history-runs", o.history_rule.noise_runs,
                    "Latest sessions of a pair whose runs form its noise model (K; a session of one run is one run)")
        ->capture_default_str()->check(CLI::Range(2, 1000));
    cmd->add_option("--min-history-runs", o.history_rule.min_runs,
                    "Sessions a pair needs before its own history decides; fewer: the fallback rule")
        ->capture_default_str()->check(CLI::Range(3, 1000));
    cmd->add_option("--session-gap", o.history_rule.session_gap_s,
                    "Seconds: a run of the same machine starting sooner than this after the previous run ended "
                    "joins its session, one piece of evidence (docs/gate.md, \"Sessions\"); 0: every run its own")
        ->capture_default_str()->check(CLI::Range(0LL, 31LL * 24 * 3600));
    cmd->add_option("--machines-window-days", o.history_rule.machines_window_days,
                    "The machines rule reads other machines' runs of the last this many days (0: all)")
        ->capture_default_str()->check(CLI::Range(0L, 36500L));
    cmd->add_option("--reference-runs", o.history_rule.reference.runs,
                    "First runs of the current segment whose median is the reference level (docs/gate.md, \"Reference\")")
        ->capture_default_str()->check(CLI::Range(1, 100));
    add_power_option(cmd, o.history_rule.power);
    cmd->callback([args, baseline_ref] { exit_status = run_gate_command(*args, baseline_ref->count() > 0); });
}

}  // namespace perfgate::cli
