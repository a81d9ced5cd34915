// perfgate: a performance-regression gate for LLM inference runtimes.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <csignal>

#include "commands.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate_version.hpp"

namespace perfgate::cli {
int exit_status = exit_code::success;
}

int main(int argc, char** argv) {
    // Under a file-size limit (RLIMIT_FSIZE) a write past it raises SIGXFSZ, whose default action
    // kills the process mid-row; ignored, the write fails with EFBIG, which every writer handles as
    // an error value (no torn row, no temporary left; docs/reliability.md).
    std::signal(SIGXFSZ, SIG_IGN);
    CLI::App app{
        "perfgate: a performance-regression gate for LLM inference runtimes.\n"
        "Exit codes: 0 success / no regression, 1 regression or failed run, 2 usage or input error, 77 skipped."};
    app.set_version_flag("--version", std::string("perfgate ") + PERFGATE_VERSION);
    app.require_subcommand(0, 1);
    // Subcommand registrations (one line each):
    perfgate::cli::add_forge_command(app);
    perfgate::cli::add_run_command(app);
    perfgate::cli::add_gate_command(app);
    perfgate::cli::add_probe_command(app);
    perfgate::cli::add_report_command(app);
    perfgate::cli::add_calibrate_command(app);
    perfgate::cli::add_ab_command(app);
    perfgate::cli::add_compare_command(app);
    perfgate::cli::add_prune_command(app);
    perfgate::cli::add_merge_command(app);
    perfgate::cli::add_history_command(app);
    perfgate::cli::add_export_command(app);
    perfgate::cli::add_site_command(app);
    perfgate::cli::add_guard_command(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int rc = app.exit(e);
        return rc == 0 ? 0 : perfgate::exit_code::usage;
    }
    if (app.get_subcommands().empty()) {
        fmt::print("{}", app.help());
        return perfgate::exit_code::success;
    }
    return perfgate::cli::exit_status;
}
