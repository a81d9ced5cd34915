#include "classify.hpp"

#include <csignal>
#include <cstring>
#include <regex>
#include <utility>

#include "perfgate/core/measure_rules.hpp"

namespace perfgate::perf {

bool output_reports_oom(std::string_view merged_output) {
    // A bare "oom" is deliberately not matched (it occurs in words such as "room" and "zoom").
    static const std::regex oom_re(
        "out of memory|out-of-memory|insufficient memory|failed to allocate|cannot allocate memory|"
        "unable to allocate|bad_alloc|memory allocation of [0-9]|greater than the maximum allowed "
        "buffer size|metal::malloc|CUDA_ERROR_OUT_OF_MEMORY|cudaErrorMemoryAllocation|cuMemAlloc failed",
        std::regex::ECMAScript | std::regex::icase | std::regex::optimize);
    return std::regex_search(merged_output.begin(), merged_output.end(), oom_re);
}

StatusToken classify_launch(const LaunchResult& launch, bool have_decode) {
    if (!launch.started) return StatusToken{"FAIL:bench"};
    if (launch.timed_out) return StatusToken{"FAIL:timeout"};
    const int status = launch.shell_status();
    if (status == 137 || (launch.term_signal && *launch.term_signal == SIGKILL)) return StatusToken{"SKIP:oom"};
    if (status != 0) return StatusToken{output_reports_oom(launch.merged()) ? "SKIP:oom" : "FAIL:bench"};
    if (!have_decode) return StatusToken{"FAIL:no_output"};
    return StatusToken{"ok"};
}

std::optional<std::string> implausible_measurement(const Measurement& m) {
    const std::pair<const char*, const std::optional<double>*> rates[] = {{"decode_tok_s", &m.decode_tok_s},
                                                                          {"prefill_tok_s", &m.prefill_tok_s}};
    for (const auto& [name, value] : rates)
        if (*value)
            if (auto why = implausible_rate(**value)) return std::string(name) + " " + *why;
    const std::pair<const char*, const std::vector<double>*> samples[] = {{"decode sample", &m.decode_samples},
                                                                          {"prefill sample", &m.prefill_samples}};
    for (const auto& [name, values] : samples)
        for (double v : *values)
            if (auto why = implausible_rate(v)) return std::string("a ") + name + " " + *why;
    return std::nullopt;
}

std::string describe_launch(const LaunchResult& launch) {
    if (!launch.started) return launch.start_error;
    if (launch.timed_out) return "ran past its time limit; its process group was killed";
    if (launch.term_signal) {
        // Named as well as numbered: "ended by signal 11 (SIGSEGV)" reads as a crash at a glance.
        const char* abbrev = ::sigabbrev_np(*launch.term_signal);
        return "ended by signal " + std::to_string(*launch.term_signal) + (abbrev ? std::string(" (SIG") + abbrev + ")" : "");
    }
    return "exit " + std::to_string(launch.exit_code.value_or(-1));
}


}  // namespace perfgate::perf
