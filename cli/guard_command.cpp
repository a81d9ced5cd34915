// `perfgate guard`: the pull-request guard over a backend's suites as a whole (docs/gate.md,
// "Pull requests"): every pair that a measured suite of the backend ran at the base ref must be
// run by a measured suite now. Exit 0 none dropped, 1 a pair dropped, 2 bad input.
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/runner/suite_at_ref.hpp"

namespace perfgate::cli {
namespace {

struct GuardArgs {
    std::string suites_dir = "perf/suites";
    std::string backend;
    std::string baseline_ref;
};

int run_guard(const GuardArgs& args) {
    auto ref = runner::baseline_ref_for_run(args.baseline_ref);
    if (!ref) return usage_error("perfgate guard", ref.error());
    auto guard = runner::guard_suites(args.suites_dir, args.backend, args.baseline_ref);
    if (!guard) return usage_error("perfgate guard", guard.error());
    for (const auto& d : guard->dropped)
        fmt::print("perfgate guard: {}/{} is measured by {} and by no {} suite now (renamed, removed, or made a "
                   "replay): a change cannot take a pair out of the gate; drop it from the suite at the base ref "
                   "first\n",
                   d.runtime, d.model, d.suite_at_ref, args.backend);
    if (!guard->dropped.empty()) {
        fmt::print("perfgate guard: FAIL: {} of the {} pairs the {} suites measured at {} are not measured now\n",
                   guard->dropped.size(), guard->measured_at_ref, args.backend, args.baseline_ref);
        return exit_code::regression;
    }
    fmt::print("perfgate guard: PASS: the {} pairs the {} suites measured at {} are all measured now ({} in all)\n",
               guard->measured_at_ref, args.backend, args.baseline_ref, guard->measured_now);
    return exit_code::success;
}

}  // namespace

void add_guard_command(CLI::App& app) {
    auto args = std::make_shared<GuardArgs>();
    auto* cmd = app.add_subcommand(
        "guard", "Pull-request guard over a backend's suites: every pair a measured suite <backend>*.json ran at the "
                 "base ref must be run by a measured suite now, whatever the suites or runtimes are called (exit 0 "
                 "none dropped, 1 a pair dropped, 2 bad input)");
    cmd->add_option("--backend", args->backend, "The backend whose suites are compared (cpu, cuda, rocm, metal)")->required();
    cmd->add_option("--baseline-ref", args->baseline_ref, "The base ref (a pull request's merge base)")->required();
    cmd->add_option("--suites-dir", args->suites_dir, "The folder of the suites")->capture_default_str();
    cmd->callback([args] { exit_status = run_guard(*args); });
}

}  // namespace perfgate::cli
