#pragma once
// --color auto|always|never, the same on every command that prints a report (gate, compare, run, ab).
#include <CLI/CLI.hpp>

#include <string>

#include "perfgate/core/console.hpp"

namespace perfgate::cli {

inline void add_color_option(CLI::App* cmd, std::string& mode) {
    cmd->add_option("--color", mode,
                    "Colour verdicts: auto (only on a terminal, and not when NO_COLOR is set), always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->capture_default_str();
}

// Whether text written to `fd` (1 stdout, 2 stderr) gets colour; `mode` is a checked option value.
inline bool color_on(const std::string& mode, int fd) {
    return color_for_fd(color_mode_from_string(mode).value_or(ColorMode::automatic), fd);
}

}  // namespace perfgate::cli
