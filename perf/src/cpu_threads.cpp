#include "cpu_threads.hpp"

#include <algorithm>

#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {

// Measured on the 2-core development host (docs/verdict-quality.md): llama-bench decode with
// 2 threads read a robust CV of 67% (threads spinning on oversubscribed cores wait for each
// other), with 1 thread 10%. On a few cores one spare core is worth more than one more thread; on
// larger hosts the spare core is a small share and every core is llama.cpp's own choice.
int default_cpu_threads(int cores) {
    if (cores <= 4) return std::max(1, cores - 1);
    return cores;
}

bool sets_thread_count(const SuiteRuntime& runtime) {
    auto has = [](const std::vector<std::string>& v) {
        return std::any_of(v.begin(), v.end(), [](const std::string& a) {
            return a == "-t" || a == "--threads" || a.rfind("--threads=", 0) == 0;
        });
    };
    return has(runtime.args) || has(runtime.flags);
}

std::vector<std::string> default_thread_flags(const Suite& suite, const SuiteRuntime& runtime, const HostContext& host) {
    if (suite.backend != "cpu" || !adapter_of(runtime).takes_cpu_threads) return {};
    // Counted instructions: one thread. Threads that spin while they wait for each other execute
    // as many instructions as the scheduler lets them, so only one thread counts the same each time.
    if (runtime.measure == Measure::instructions) return sets_thread_count(runtime) ? std::vector<std::string>{} : std::vector<std::string>{"-t", "1"};
    if (suite.replay || runtime.replay || !host.replay.empty()) return {};  // a recording ran with what it ran
    if (!host.cpu_cores || sets_thread_count(runtime)) return {};
    return {"-t", std::to_string(default_cpu_threads(*host.cpu_cores))};
}

}  // namespace perfgate::perf
