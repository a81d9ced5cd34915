#pragma once
// What a runner call ended with. Libraries return this; only cli/ turns it into an exit code
// (pass 0, fail 1, skip 77). Bad input is not an outcome but an Error (exit 2).
#include "perfgate/core/result_row.hpp"

namespace perfgate::runner {

enum class Outcome {
    pass,  // measured (and gated, when asked) without a regression
    fail,  // a FAIL: run, or a regression
    skip,  // nothing could be measured here (does not fit, backend missing, every pair skipped)
};

// A pair's outcome from its row's status: ok passes, SKIP:... skips, anything else fails.
inline Outcome outcome_of(const StatusToken& status) {
    if (status.ok()) return Outcome::pass;
    return status.is_skip() ? Outcome::skip : Outcome::fail;
}

// The worse of two outcomes when several pairs run in one call: any fail fails; skip only when
// everything skipped (callers fold skips separately, see suite_run.cpp).
inline Outcome worse(Outcome a, Outcome b) { return (a == Outcome::fail || b == Outcome::fail) ? Outcome::fail : a; }

}  // namespace perfgate::runner
