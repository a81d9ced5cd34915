// `perfgate export --format bmf|conbench`: a run's readings for a dashboard a team already runs
// (Bencher's BMF JSON: `bencher run --adapter json --file F`; Conbench's benchmark results, one
// POST each); report/export_bmf.hpp and export_conbench.hpp say what goes where.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "common_options.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/file_write.hpp"
#include "perfgate/report/export_bmf.hpp"
#include "perfgate/report/export_conbench.hpp"
#include "perfgate/runner/results_as_csv.hpp"

namespace perfgate::cli {
namespace {

struct ExportArgs {
    std::string format;
    report::BmfExportOptions options;
    std::string repository, run_reason;  // conbench
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
    std::vector<std::string> left_out;
    auto text = [&]() -> Expected<std::string> {
        if (args.format == "bmf") return report::export_bmf(args.options);
        auto conbench = report::export_conbench({args.options.results, args.options.run_id, args.repository, args.run_reason});
        if (!conbench) return conbench.error();
        left_out = conbench->left_out;
        return conbench->json;
    }();
    if (!text) {
        std::string message = text.error().message;
        results->name_sources(message);  // the user's file, not the private copy
        fmt::print(stderr, "perfgate export: {}\n", message);
        return exit_code::usage;
    }
    for (const auto& note : left_out) fmt::print(stderr, "perfgate export: left out {}\n", note);
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
        "export", "Write a run's readings for another dashboard: Bencher Metric Format or Conbench results JSON (exit 0 "
                  "written, 2 bad input)");
    cmd->add_option("--format", args->format,
                    "bmf: Bencher Metric Format (bencher run --adapter json); conbench: an array of Conbench benchmark "
                    "results, one POST /api/benchmark-results each")
        ->check(CLI::IsMember({"bmf", "conbench"}))
        ->required();
    add_results_option(cmd, args->options.results,
                       "Result file (repeatable): a perfgate or mlxcel CSV, llama-bench's own -o json, -o jsonl, -o csv "
                       "or -o sql output, or a vLLM or SGLang serving result file (with --host)")
        ->required();
    cmd->add_option("--run-id", args->run_id,
                    "Only the rows of this run (the run_id column; a history file holds many, and both formats take one run)");
    cmd->add_option("--repository", args->repository,
                    "conbench: the measured runtime's repository, https://github.com/ORG/REPO (Conbench requires it)");
    cmd->add_option("--run-reason", args->run_reason, "conbench: the run's reason (commit, pull-request, ...)");
    cmd->add_option("--host", args->host, "Host tag of llama-bench output files (they name none)");
    cmd->add_option("--output", args->output, "Write the JSON to this file (atomically) instead of stdout");
    cmd->callback([args] { exit_status = run_export(*args); });
}

}  // namespace perfgate::cli
