// `perfgate report`: a published baseline page (markdown + SVG charts) from result CSVs, with an
// optional runtime-versus-runtime relative gate.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/report/make_report.hpp"

namespace perfgate::cli {
namespace {

struct ReportArgs {
    report::ReportOptions options;
    std::string compare;
    double min_ratio = 0;
    bool no_charts = false;
};

// The command line as typed, for the page's "How to reproduce" (each argument shell-quoted when it
// needs it, so the line can be pasted back).
std::string shell_word(const std::string& arg) {
    if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@") ==
                            std::string::npos)
        return arg;
    std::string out = "'";
    for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

int run_report_command(ReportArgs args, const CLI::App& cmd) {
    auto& o = args.options;
    if (!args.compare.empty()) o.compare = args.compare;
    if (cmd.count("--min-ratio") > 0) o.min_ratio = args.min_ratio;
    o.charts.enabled = !args.no_charts;
    std::string line = "perfgate report";
    for (const auto& r : o.results) line += " --results " + shell_word(r);
    line += " --output " + shell_word(o.output);
    if (!o.history_dir.empty()) line += " --history-dir " + shell_word(o.history_dir);
    if (o.thresholds_dir != "thresholds") line += " --thresholds-dir " + shell_word(o.thresholds_dir);
    if (!o.note.empty()) line += " --note " + shell_word(o.note);
    if (o.compare) line += " --compare " + shell_word(*o.compare);
    if (o.min_ratio) line += fmt::format(" --min-ratio {:g}", *o.min_ratio);
    if (args.no_charts) line += " --no-charts";
    o.command_line = line;

    auto outcome = report::make_report(o);
    if (!outcome) {
        fmt::print(stderr, "{}\n", outcome.error().message);
        return exit_code::usage;
    }
    fmt::print("{}", outcome->summary);
    return outcome->exit_code;
}

}  // namespace

void add_report_command(CLI::App& app) {
    auto args = std::make_shared<ReportArgs>();
    auto* cmd = app.add_subcommand(
        "report", "Write a baseline page (markdown + SVG charts) from result CSVs; with --min-ratio, exit 1 when "
                  "runtime A's decode falls below the ratio x runtime B's for some model");
    cmd->add_option("--results", args->options.results, "Result CSV (repeatable)")->required()->check(CLI::ExistingFile);
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
