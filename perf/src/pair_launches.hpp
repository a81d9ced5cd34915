#pragma once
// The launches of one pair (pair_runner.cpp's step 4): warmups and repetitions, each behind the
// contention guard and with progress on the console, each launch's output parsed and classified.
// What comes back is either every reading or why the pair stopped; the pair runner turns that into
// the recorded row.
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "perfgate/core/result_row.hpp"
#include "perfgate/perf/contention_guard.hpp"
#include "perfgate/perf/measurement.hpp"
#include "perfgate/perf/suite.hpp"
#include "device_memory_sampler.hpp"

namespace perfgate::perf {

// What every launch of the pair shares.
struct LaunchPlan {
    const SuiteRuntime& runtime;
    const SuiteModel& model;
    const Workload& workload;
    std::vector<std::string> args;  // build_arguments', the same for every launch
    std::string label;              // "[perf] <model> on <runtime>", the prefix of every log line
};

// The readings of a pair whose launches all counted.
struct PairReadings {
    Measurement last;  // the last launch's measurement (an in-process run: its repetitions)
    // One decode and prefill rate per measured launch; an in-process run: its own samples.
    std::vector<double> decode, prefill;
    std::vector<double> peaks;  // peak resident bytes of each measured launch (process.hpp)
    // Peak device bytes of each measured launch that the sampler read (device_memory_sampler.hpp).
    std::vector<double> device_peaks;
};

// Why the launches ended before the last one: its status (not ok) and the reason, on one line.
struct LaunchStop {
    StatusToken status;
    std::string reason;
    // FAIL:no_output: what the output did hold still goes into the row.
    std::optional<Measurement> partial;
};

// A launch's reason on one line (CTest output, the summary line of perfgate run).
std::string one_line(std::string text);

// Runs the plan's warmups and repetitions; the first launch that fails, or that others disturbed,
// ends them. `guard` waits before each launch and accounts after it; `device_memory` samples the
// GPU memory of each launch.
std::variant<PairReadings, LaunchStop> run_launches(const LaunchPlan& plan, ContentionGuard& guard,
                                                    DeviceMemorySampler& device_memory, std::ostream& log);

}  // namespace perfgate::perf
