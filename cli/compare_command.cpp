// `perfgate compare A B`: two result files (perfgate or mlxcel CSVs, llama-bench -o json/jsonl/csv/sql)
// judged as the gate judges a run, with A as the baseline; exit 0 pass, 1 regressed/failed, 2 bad input.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "common_options.hpp"
#include "report_output.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/gates/render.hpp"
#include "perfgate/runner/compare_files.hpp"

namespace perfgate::cli {
namespace {

struct CompareArgs {
    std::string baseline, current;
    gates::GateOptions options;
    std::string host = "unknown-host";
    std::string format = "text";
    std::string color = "auto";
    std::string show = "changed";
    std::string output;
    std::string test = "welch-t";
};

int run_compare(CompareArgs& args) {
    auto test = gates::stat_test_from_string(args.test);
    auto format = gates::report_format_from_string(args.format);
    if (!test || !format) {
        fmt::print(stderr, "perfgate compare: unknown {}\n", !test ? "--test " + args.test : "--format " + args.format);
        return exit_code::usage;
    }
    args.options.test = *test;
    auto report = runner::compare_result_files(args.baseline, args.current, args.options, args.host);
    if (!report) {
        fmt::print(stderr, "perfgate compare: {}\n", report.error().message);
        return exit_code::usage;
    }
    return emit_gate_report(*report, *format, args.output, "perfgate compare", args.color, args.show);
}

}  // namespace

void add_compare_command(CLI::App& app) {
    auto args = std::make_shared<CompareArgs>();
    auto& o = args->options;
    auto* cmd = app.add_subcommand(
        "compare",
        "Judge result file B against result file A as the gate would (exit 0 pass, 1 regressed or failed, 2 bad input).\n"
        "Either file: a perfgate or mlxcel CSV, llama-bench's own -o json, -o jsonl, -o csv or -o sql output, or "
        "a vllm bench serve --save-result or sglang bench_serving --output-file result file.");
    cmd->add_option("A", args->baseline, "Baseline result file")->required()->check(CLI::ExistingFile);
    cmd->add_option("B", args->current, "Result file to judge")->required()->check(CLI::ExistingFile);
    add_report_options(cmd, args->format, args->output, args->color, "text | markdown | junit | json");
    add_show_option(cmd, args->show);
    cmd->add_option("--thresholds-dir", o.thresholds_dir,
                    "Folder with default.json and <host_tag>.json (missing: the built-in defaults)")
        ->capture_default_str();
    cmd->add_option("--host", args->host, "Host tag of llama-bench files (they record none); picks thresholds/<host>.json")
        ->capture_default_str();
    add_prompt_tolerance_option(cmd, o.prompt_tolerance);
    cmd->add_option("--test", args->test, "Within-run test of the fallback rule: welch-t | mann-whitney-u")
        ->capture_default_str();
    cmd->callback([args] { exit_status = run_compare(*args); });
}

}  // namespace perfgate::cli
