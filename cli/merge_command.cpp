// `perfgate merge --into DIR FILE...`: adds the runs of result files to the folder's files of the
// same names (the CI job that proposes the next baseline), row by row and never replacing a file,
// so a baseline file of the same day keeps every row it had.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/csv_merge.hpp"
#include "perfgate/core/exit_codes.hpp"

namespace perfgate::cli {
namespace {

struct MergeArgs {
    std::string into;
    std::vector<std::string> files;
};

int run_merge(const MergeArgs& args) {
    auto merged = merge_results_into(args.into, args.files);
    if (!merged) return usage_error("perfgate merge", merged.error());
    for (const auto& w : merged->warnings) fmt::print(stderr, "perfgate merge: warning: {}\n", w);
    for (const auto& m : merged->files)
        if (m.into.empty()) fmt::print("perfgate merge: {}: nothing merged ({} replayed rows)\n", m.source, m.skipped);
        else fmt::print("perfgate merge: {} -> {}: {} row{} added, {} skipped (runs already there, replayed rows)\n",
                        m.source, m.into, m.added, m.added == 1 ? "" : "s", m.skipped);
    return exit_code::success;
}

}  // namespace

void add_merge_command(CLI::App& app) {
    auto args = std::make_shared<MergeArgs>();
    auto* cmd = app.add_subcommand(
        "merge", "Add the runs (run_id) of result CSVs to the folder's CSVs of the same names, under their lock; rows of "
                 "runs a file holds already are skipped, no file is replaced (exit 0 merged, 2 bad input)");
    cmd->add_option("--into", args->into, "The folder of result CSVs to merge into (e.g. benchmarks/)")
        ->required()
        ->check(CLI::ExistingDirectory);
    cmd->add_option("files", args->files, "Result CSVs of perfgate's schema; each goes into --into/<its name>")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->callback([args] { exit_status = run_merge(*args); });
}

}  // namespace perfgate::cli
