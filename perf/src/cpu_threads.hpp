#pragma once
// llama-bench's thread count on the cpu backend when the suite sets none (docs/runner.md, "CPU
// threads"): its own default, every core, oversubscribes a small host.
#include <optional>
#include <string>
#include <vector>

#include "perfgate/perf/host_context.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::perf {

// Threads for a host with `cores` usable physical cores: one core is left free on hosts with 4 or
// fewer (for the OS, perfgate and the runtime's own non-compute threads), every core above that.
int default_cpu_threads(int cores);

// True when the runtime's args or flags already choose a thread count (-t / --threads).
bool sets_thread_count(const SuiteRuntime& runtime);

// The flags to append ({"-t", "N"}), or none: only for a measured (not replayed) llama-bench on a
// cpu suite without its own -t, on a host whose core count is known.
std::vector<std::string> default_thread_flags(const Suite& suite, const SuiteRuntime& runtime, const HostContext& host);

}  // namespace perfgate::perf
