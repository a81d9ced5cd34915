#pragma once
// Registration functions of the subcommands; each is defined in its own <name>_command.cpp.
// A subcommand's callback stores its exit code in `exit_status`.
#include <CLI/CLI.hpp>

namespace perfgate::cli {
extern int exit_status;

void add_forge_command(CLI::App& app);  // forge_command.cpp
void add_run_command(CLI::App& app);    // run_command.cpp
void add_gate_command(CLI::App& app);   // gate_command.cpp
void add_probe_command(CLI::App& app);   // probe_command.cpp
void add_report_command(CLI::App& app);  // report_command.cpp
void add_calibrate_command(CLI::App& app);  // calibrate_command.cpp
void add_ab_command(CLI::App& app);         // ab_command.cpp
void add_compare_command(CLI::App& app);    // compare_command.cpp
void add_prune_command(CLI::App& app);      // prune_command.cpp
void add_merge_command(CLI::App& app);      // merge_command.cpp
void add_history_command(CLI::App& app);    // history_command.cpp
void add_export_command(CLI::App& app);     // export_command.cpp
void add_site_command(CLI::App& app);       // site_command.cpp
void add_guard_command(CLI::App& app);      // guard_command.cpp
}
