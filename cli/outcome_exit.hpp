#pragma once
// The one place where the libraries' typed outcomes become perfgate's exit codes (README): the
// runner's Outcome, the gate report's pass, the report's relative gate.
#include <iostream>
#include <string>

#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/expected.hpp"
#include "perfgate/report/relative_gate.hpp"
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

// perfgate report --min-ratio: a gate with nothing to compare is bad input, not a pass.
inline int exit_of(report::RelativeGate gate) {
    switch (gate) {
        case report::RelativeGate::none:
        case report::RelativeGate::passed: return exit_code::success;
        case report::RelativeGate::failed: return exit_code::regression;
        case report::RelativeGate::undecided: return exit_code::usage;
    }
    return exit_code::usage;
}

// perfgate gate and compare: a report that did not pass fails the command.
inline int exit_of_gate(bool passed) { return passed ? exit_code::success : exit_code::regression; }

inline int exit_of(const Expected<runner::Outcome>& outcome, const std::string& command) {
    return outcome ? exit_of(*outcome) : usage_error(command, outcome.error());
}

}  // namespace perfgate::cli
