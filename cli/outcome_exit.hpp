#pragma once
// The one place where the runner's typed outcomes become perfgate's exit codes (README).
#include <iostream>
#include <string>

#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/expected.hpp"
#include "perfgate/runner/outcome.hpp"

namespace perfgate::cli {

inline int usage_error(const std::string& command, const Error& error) {
    std::cerr << command << ": " << error.message << '\n';
    return exit_code::usage;
}

inline int exit_of(runner::Outcome outcome) {
    switch (outcome) {
        case runner::Outcome::pass: return exit_code::success;
        case runner::Outcome::fail: return exit_code::regression;
        case runner::Outcome::skip: return exit_code::skipped;
    }
    return exit_code::regression;
}

inline int exit_of(const Expected<runner::Outcome>& outcome, const std::string& command) {
    return outcome ? exit_of(*outcome) : usage_error(command, outcome.error());
}

}  // namespace perfgate::cli
