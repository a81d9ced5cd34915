#pragma once
// Processes for tests: whether a child the test started (or one it started) is still running, for
// the tests that promise a timeout or an interrupt leaves nothing behind.
#include <chrono>

namespace perfgate::test {

// True while `pid` exists and is not a zombie waiting for its reaper (read from /proc).
bool process_alive(int pid);
// Waits up to `limit` for `pid` to end; true once it has.
bool process_gone_within(int pid, std::chrono::milliseconds limit);

}  // namespace perfgate::test
