// `perfgate report`: a published baseline page (markdown + SVG charts) from result CSVs, with an
// optional runtime-versus-runtime relative gate.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "common_options.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/report/make_report.hpp"
#include "perfgate/report/reproduce_command.hpp"
#include "perfgate/runner/results_as_csv.hpp"

namespace perfgate::cli {
namespace {

struct ReportArgs {
    report::ReportOptions options;
    std::string host;  // of llama-bench output files
    std::string compare;
    double min_ratio = 0;
    bool no_charts = false;
};

int run_report_command(ReportArgs args, const CLI::App& cmd) {
    auto& o = args.options;
    if (!args.compare.empty()) o.compare = args.compare;
    if (cmd.count("--min-ratio") > 0) o.min_ratio = args.min_ratio;
    o.charts.enabled = !args.no_charts;
    o.command_line = report::reproduce_command(o);  // for the page's "How to reproduce"
    if (!args.host.empty()) o.command_line += " --host " + args.host;
    // llama-bench's own output is reported as its rows (perfgate's schema), like a results CSV.
    auto results = runner::ResultsAsCsv::make(o.results, args.host);
    if (!results) {
        fmt::print(stderr, "perfgate report: {}\n", results.error().message);
        return exit_code::usage;
    }
    o.results = results->csv_paths();
    for (const auto& note : results->conversion_notes()) o.note += (o.note.empty() ? "" : "; ") + note;
    auto outcome = report::make_report(o);
    if (!outcome) {
        std::string message = outcome.error().message;
        results->name_sources(message);  // the user's file, not the private copy
        fmt::print(stderr, "{}\n", message);
        return exit_code::usage;
    }
    fmt::print("{}", outcome->summary);
    return exit_of(outcome->relative_gate);
}

}  // namespace

void add_report_command(CLI::App& app) {
    auto args = std::make_shared<ReportArgs>();
    auto* cmd = app.add_subcommand(
        "report", "Write a baseline page (markdown + SVG charts) from result CSVs; with --min-ratio, exit 1 when "
                  "runtime A's decode falls below the ratio x runtime B's for some model");
    add_results_option(cmd, args->options.results,
                       "Result file (repeatable): a perfgate or mlxcel CSV, llama-bench's own -o json, -o jsonl, -o csv "
                       "or -o sql output, or a vLLM or SGLang serving result file (with --host)")
        ->required();
    cmd->add_option("--host", args->host, "Host tag of llama-bench output files, which name none");
    cmd->add_option("--output", args->options.output, "Page to write, e.g. docs/benchmark_results/<backend>_<host>_<date>.md")
        ->required();
    cmd->add_option("--history-dir", args->options.history_dir, "Folder of earlier result CSVs for the history charts");
    cmd->add_option("--thresholds-dir", args->options.thresholds_dir,
                    "Folder of <host>.json files (memory_bandwidth_bytes_per_s for the roofline)")
        ->capture_default_str();
    cmd->add_option("--note", args->options.note, "Operator note on the run (e.g. other GPU tenants stopped)");
    cmd->add_option("--compare", args->compare, "Compare runtime A with runtime B, as A:B (default: the two runtimes, if two)");
    cmd->add_option("--min-ratio", args->min_ratio, "Relative gate: fail when A decode < ratio x B decode for a model")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--max-date-gap-days", args->options.max_date_gap_days,
                    "Readings of A and B further apart (calendar days) are not compared")
        ->capture_default_str();
    cmd->add_flag("--no-charts", args->no_charts, "Do not run gnuplot; the page says charts were turned off");
    cmd->callback([args, cmd] { exit_status = run_report_command(*args, *cmd); });
}

}  // namespace perfgate::cli
