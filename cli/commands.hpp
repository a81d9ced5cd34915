#pragma once
// Registration functions of the subcommands; each is defined in its own <name>_command.cpp.
// A subcommand's callback stores its exit code in `exit_status`.
#include <CLI/CLI.hpp>

namespace perfgate::cli {
extern int exit_status;
}
