#pragma once
// perfgate's documented exit codes (README.md, "Exit codes"; each command's own cases in the
// "Exit codes" sections of docs/gate.md, docs/ab.md and docs/runner.md). 77 is CTest's conventional
// skip code, set as SKIP_RETURN_CODE on every perf test.
namespace perfgate::exit_code {
inline constexpr int success = 0;     // success, no regression
inline constexpr int regression = 1;  // a regression or a failed run
inline constexpr int usage = 2;       // usage or input error
inline constexpr int skipped = 77;    // skipped (does not fit, wrong backend)
}  // namespace perfgate::exit_code
