#pragma once
// The verdict of perfgate report's relative gate (--min-ratio: runtime A's decode against B's).

namespace perfgate::report {

// none asked for (no min_ratio), passed, failed (some model below min_ratio), or undecided (nothing
// to compare, which cli/ treats as bad input).
enum class RelativeGate { none, passed, failed, undecided };

}  // namespace perfgate::report
