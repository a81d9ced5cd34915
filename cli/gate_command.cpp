// `perfgate gate`: judges result CSVs against their baselines; exit 0 pass, 1 regressed/failed, 2 bad input.
#include <filesystem>
#include <memory>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "commands.hpp"
#include "color_option.hpp"
#include "report_output.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/project_paths.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/render.hpp"
#include "perfgate/runner/suite_at_ref.hpp"

namespace perfgate::cli {
namespace {

struct GateArgs {
    gates::GateOptions options;
    std::string baseline, baseline_ref, catalog, suite;
    bool baseline_ref_given = false;  // an empty --baseline-ref "" is an error, not "no ref"
    std::string benchmarks_dir, thresholds_dir;  // empty: <project root>/benchmarks, /thresholds
    std::string format = "text";
    std::string color = "auto";
    std::string output;
    std::string test = "welch-t";
    bool allow_empty = false;
};

// The defaults do not depend on where the command is started: the project root is the nearest
// folder, from the working directory upwards, that holds a benchmarks/ or thresholds/ folder.
std::optional<std::filesystem::path> project_root() {
    std::error_code ec;
    auto dir = std::filesystem::current_path(ec);
    if (ec) return std::nullopt;
    return nearest_ancestor(dir, [&](const std::filesystem::path& d) {
        return std::filesystem::is_directory(d / "benchmarks", ec) || std::filesystem::is_directory(d / "thresholds", ec);
    });
}

// Resolves --benchmarks-dir and --thresholds-dir; an error names the folder. A folder given on the
// command line must exist (a typo would otherwise make every pair "new"); a default one may be
// missing (no thresholds/: the built-in defaults, no benchmarks/: a first run, which fails unless
// --allow-empty).
Status resolve_folders(GateArgs& args) {
    auto& o = args.options;
    std::optional<std::filesystem::path> root;
    if (args.benchmarks_dir.empty() || args.thresholds_dir.empty()) {
        root = project_root();
        if (!root)
            return make_error("no benchmarks/ or thresholds/ folder in the working directory or any folder above it; "
                              "pass --benchmarks-dir and --thresholds-dir");
    }
    for (auto [given, out, name] : {std::tuple{&args.benchmarks_dir, &o.benchmarks_dir, "benchmarks"},
                                    std::tuple{&args.thresholds_dir, &o.thresholds_dir, "thresholds"}}) {
        if (given->empty()) {
            *out = (*root / name).string();
            continue;
        }
        std::error_code ec;
        if (!std::filesystem::is_directory(*given, ec))
            return make_error(fmt::format("--{}-dir {}: no such folder", name, *given));
        *out = *given;
    }
    return Ok{};
}

int run_gate_command(GateArgs& args) {
    auto& o = args.options;
    if (auto st = resolve_folders(args); !st) {
        fmt::print(stderr, "perfgate gate: {}\n", st.error().message);
        return exit_code::usage;
    }
    o.empty_run = args.allow_empty ? gates::EmptyRun::allow : gates::EmptyRun::fail;
    if (!args.baseline.empty()) o.baseline = args.baseline;
    if (args.baseline_ref_given) {
        // An empty value (a failed merge-base step in a script) must not silently turn the
        // pull-request protection off.
        if (args.baseline_ref.find_first_not_of(" \t\r\n") == std::string::npos) {
            fmt::print(stderr, "perfgate gate: --baseline-ref is empty: the base ref to read baselines and thresholds "
                               "at is unknown (did the merge-base step fail?); leave the option out to gate against "
                               "the working tree\n");
            return exit_code::usage;
        }
        o.baseline_ref = args.baseline_ref;
    }
    if (!args.suite.empty()) {
        if (!o.baseline_ref) {
            fmt::print(stderr, "perfgate gate: --suite needs --baseline-ref (it names the suite whose version at the "
                               "ref may excuse a missing or skipped pair)\n");
            return exit_code::usage;
        }
        auto pairs = runner::suite_pairs_at_ref(args.suite, *o.baseline_ref);
        if (!pairs) {
            fmt::print(stderr, "perfgate gate: {}\n", pairs.error().message);
            return exit_code::usage;
        }
        o.pairs_at_ref = std::move(*pairs);
    }
    if (!args.catalog.empty()) o.catalog = args.catalog;
    auto test = gates::stat_test_from_string(args.test);
    auto format = gates::report_format_from_string(args.format);
    if (!test || !format) {
        fmt::print(stderr, "perfgate gate: unknown {}\n", !test ? "--test " + args.test : "--format " + args.format);
        return exit_code::usage;
    }
    o.test = *test;
    auto report = gates::run_gate(o);
    if (!report) {
        fmt::print(stderr, "perfgate gate: {}\n", report.error().message);
        return exit_code::usage;
    }
    return emit_gate_report(*report, *format, args.output, "perfgate gate", args.color);
}

}  // namespace

void add_gate_command(CLI::App& app) {
    auto args = std::make_shared<GateArgs>();
    auto& o = args->options;
    auto* cmd = app.add_subcommand("gate", "Fail a run that regressed against its baseline (exit 0 pass, 1 regressed or failed, 2 bad input)");
    cmd->add_option("--results", o.results, "Result CSV to judge (repeatable)")->required()->check(CLI::ExistingFile);
    cmd->add_option("--baseline", args->baseline, "Baseline CSV; default: the latest earlier CSV of the same backend/runtime and host");
    cmd->add_option("--benchmarks-dir", args->benchmarks_dir,
                    "Folder of earlier result CSVs (must exist); default: benchmarks/ of the project root, the nearest "
                    "folder from the working directory upwards holding benchmarks/ or thresholds/");
    cmd->add_option("--thresholds-dir", args->thresholds_dir,
                    "Folder with default.json and <host_tag>.json (must exist); default: thresholds/ of the project root");
    cmd->add_flag("--allow-empty", args->allow_empty,
                  "Pass a run that compared nothing (every pair new, skipped or missing, or no pairs); without it "
                  "such a run fails (exit 1)");
    auto* baseline_ref = cmd->add_option("--baseline-ref", args->baseline_ref,
                    "Read benchmarks and thresholds as they are at this git ref (e.g. the merge base), so a change cannot "
                    "loosen its own gate; a pair ok in the baseline that is missing or skipped now then fails, unless "
                    "the --suite at the ref lacks it too (must not be empty)")
        // Zero or one value, so that an empty one reaches the check in run_gate_command (CLI11
        // would otherwise answer "1 required TEXT missing", which does not say what happened).
        ->expected(0, 1);
    cmd->add_option("--suite", args->suite,
                    "With --baseline-ref: the suite manifest, read as it is at the ref; its pairs are the ones a "
                    "run may not drop (without it every missing or skipped pair that was ok fails)");
    cmd->add_option("--format", args->format, "text | markdown | junit | json")->capture_default_str();
    cmd->add_option("--output", args->output, "Write the report to this file instead of stdout");
    add_color_option(cmd, args->color);
    cmd->add_option("--catalog", args->catalog, "Model alias catalog (TSV with local_name and aliases columns)");
    cmd->add_option("--prompt-tolerance", o.prompt_tolerance, "Relative prompt-length difference allowed")->capture_default_str()
        ->check(CLI::Range(0.0, 10.0));
    cmd->add_option("--max-date-gap-days", o.max_date_gap_days,
                    "Cross-runtime comparisons: most calendar days between the two readings")->capture_default_str();
    cmd->add_option("--host", o.host, "Host tag of the results (default: from the rows or the file name)");
    cmd->add_option("--test", args->test,
                    "Within-run test of the fallback rule (short history): welch-t | mann-whitney-u")->capture_default_str();
    cmd->add_option("--history-runs", o.history_runs, "Latest runs of a pair that form its noise model (K)")
        ->capture_default_str()->check(CLI::Range(2, 1000));
    cmd->add_option("--min-history-runs", o.history_rule.min_runs,
                    "Runs a pair needs before its own history decides; fewer: the fallback rule")
        ->capture_default_str()->check(CLI::Range(3, 1000));
    cmd->add_option("--baseline-window", o.history_rule.baseline_window,
                    "Latest runs whose median is the baseline level (1: the latest baseline run)")
        ->capture_default_str()->check(CLI::Range(1, 100));
    cmd->add_option("--power", o.history_rule.power, "Detection probability behind each verdict's stated MDE")
        ->capture_default_str()->check(CLI::Range(0.5, 0.999));
    cmd->callback([args, baseline_ref] {
        args->baseline_ref_given = baseline_ref->count() > 0;
        exit_status = run_gate_command(*args);
    });
}

}  // namespace perfgate::cli
