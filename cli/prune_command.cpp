// `perfgate prune --run-id ID`: takes one bad run (e.g. measured while another job loaded the
// machine) out of a results CSV, or out of every CSV of a folder, keeping every other byte.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "common_options.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/csv_prune.hpp"
#include "perfgate/core/exit_codes.hpp"

namespace perfgate::cli {
namespace {

struct PruneArgs {
    std::string run_id;
    std::vector<std::string> results;
    std::string benchmarks_dir;
};

int run_prune(const PruneArgs& args) {
    auto pruned = prune_run(args.results, args.benchmarks_dir, args.run_id);
    if (!pruned) return usage_error("perfgate prune", pruned.error());
    std::size_t total = 0;
    for (const auto& p : *pruned) {
        fmt::print("perfgate prune: {}: {} row{} of run {} removed\n", p.path, p.removed, p.removed == 1 ? "" : "s",
                   args.run_id);
        total += p.removed;
    }
    if (total == 0) {
        // A typo in the id must not look like success.
        fmt::print(stderr, "perfgate prune: no row of run {} found\n", args.run_id);
        return exit_code::usage;
    }
    return exit_code::success;
}

}  // namespace

void add_prune_command(CLI::App& app) {
    auto args = std::make_shared<PruneArgs>();
    auto* cmd = app.add_subcommand(
        "prune", "Remove every row of one run from results CSVs, atomically, keeping all other bytes (exit 0 removed, "
                 "2 nothing found or bad input)");
    cmd->add_option("--run-id", args->run_id, "The run to remove (the run_id column)")->required();
    auto* results = add_results_option(cmd, args->results, "A results CSV (repeatable)");
    auto* dir = cmd->add_option("--benchmarks-dir", args->benchmarks_dir, "Every *.csv of this folder that holds the run")
                    ->check(CLI::ExistingDirectory);
    results->excludes(dir);
    cmd->callback([args] {
        if (args->results.empty() && args->benchmarks_dir.empty()) {
            fmt::print(stderr, "perfgate prune: give --results CSV or --benchmarks-dir DIR\n");
            exit_status = exit_code::usage;
            return;
        }
        exit_status = run_prune(*args);
    });
}

}  // namespace perfgate::cli
