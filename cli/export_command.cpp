// `perfgate export --format bmf`: a run's readings for a dashboard a team already runs (Bencher's
// BMF JSON: `bencher run --adapter json --file F`); report/export_bmf.hpp says what goes where.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "common_options.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/file_write.hpp"
#include "perfgate/report/export_bmf.hpp"
#include "perfgate/runner/results_as_csv.hpp"

namespace perfgate::cli {
namespace {

struct ExportArgs {
    report::BmfExportOptions options;
    std::string run_id;
    std::string host;  // of llama-bench output files
    std::string output;
};

int run_export(ExportArgs args) {
    if (!args.run_id.empty()) args.options.run_id = args.run_id;
    // llama-bench's own output is exported as its rows (perfgate's schema), like a results CSV.
    auto results = runner::ResultsAsCsv::make(args.options.results, args.host);
    if (!results) return usage_error("perfgate export", results.error());
    args.options.results = results->csv_paths();
    auto text = report::export_bmf(args.options);
    if (!text) {
        std::string message = text.error().message;
        results->name_sources(message);  // the user's file, not the private copy
        fmt::print(stderr, "perfgate export: {}\n", message);
        return exit_code::usage;
    }
    if (args.output.empty()) {
        fmt::print("{}", *text);
        return exit_code::success;
    }
    if (auto written = replace_file(args.output, *text); !written) return usage_error("perfgate export", written.error());
    return exit_code::success;
}

}  // namespace

void add_export_command(CLI::App& app) {
    auto args = std::make_shared<ExportArgs>();
    auto* cmd = app.add_subcommand(
        "export", "Write a run's readings for another dashboard: Bencher Metric Format JSON (exit 0 written, 2 bad input)");
    cmd->add_option("--format", "bmf: Bencher Metric Format (bencher run --adapter json)")
        ->check(CLI::IsMember({"bmf"}))
        ->required();
    add_results_option(cmd, args->options.results,
                       "Result file (repeatable): a perfgate or mlxcel CSV, or llama-bench's own -o json, -o jsonl, -o csv "
                       "or -o sql output (with --host)")
        ->required();
    cmd->add_option("--run-id", args->run_id, "Only the rows of this run (the run_id column; a history file holds many)");
    cmd->add_option("--host", args->host, "Host tag of llama-bench output files (they name none)");
    cmd->add_option("--output", args->output, "Write the JSON to this file (atomically) instead of stdout");
    cmd->callback([args] { exit_status = run_export(*args); });
}

}  // namespace perfgate::cli
