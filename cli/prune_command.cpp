// `perfgate prune --run-id ID`: takes one bad run (e.g. measured while another job loaded the
// machine) out of a results CSV, or out of every CSV of a folder, keeping every other byte.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
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
    std::vector<PrunedFile> pruned;
    for (const auto& csv : args.results) {
        auto n = prune_run_locked(csv, args.run_id);
        if (!n) {
            fmt::print(stderr, "perfgate prune: {}\n", n.error().message);
            return exit_code::usage;
        }
        pruned.push_back({csv, *n});
    }
    if (!args.benchmarks_dir.empty()) {
        auto in_folder = prune_run_in_folder(args.benchmarks_dir, args.run_id);
        if (!in_folder) {
            fmt::print(stderr, "perfgate prune: {}\n", in_folder.error().message);
            return exit_code::usage;
        }
        pruned.insert(pruned.end(), in_folder->begin(), in_folder->end());
    }
    std::size_t total = 0;
    for (const auto& p : pruned) {
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
    auto* results = cmd->add_option("--results", args->results, "A results CSV (repeatable)")->check(CLI::ExistingFile);
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
