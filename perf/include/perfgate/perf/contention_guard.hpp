#pragma once
// The contention guard: a measurement only counts when nothing else loaded the machine while it
// ran. Before each launch it waits (bounded) for the CPU and the GPU to be quiet; over each launch
// it accounts the CPU time others used and looks at the GPU's other holders again. A pair that
// stays busy, or was disturbed during a launch, ends SKIP:contended (docs/runner.md, "Contention").
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/suite.hpp"
#include "perfgate/probes/contention.hpp"

namespace perfgate::perf {

// enforce: wait, then skip a contended pair; record: only write what was seen; off: look at nothing.
enum class ContentionMode { enforce, record, off };

// "on" (or "enforce"), "record", "off"; anything else is an error naming `origin`.
Expected<ContentionMode> parse_contention_mode(const std::string& text, const std::string& origin);
// PERFGATE_CONTENTION, enforce when unset or empty.
Expected<ContentionMode> contention_mode_from_environment();

// Where the guard reads the machine: the same seams as the probe, so tests use a fake machine.
struct ContentionSeams {
    std::string sysroot = "/";
    std::optional<std::string> search_path;  // PATH syntax for nvidia-smi; default $PATH
    // CPU seconds used by this process and its waited-for children (the runtime). Default: getrusage.
    std::function<double()> own_cpu_s;
    std::chrono::milliseconds tool_timeout{2000};
};

// One look at the machine.
struct ContentionReading {
    std::optional<double> load1;
    int cpus = 0;
    std::optional<double> other_cpu;  // share of all CPUs others used over the window (0..1)
    std::vector<probes::OtherProcess> busy;  // the busiest of them, by name
    bool gpu_checked = false;
    std::vector<probes::OtherProcess> gpu;   // other processes holding the GPU
    std::string gpu_error;                   // the GPU source could not be read
};

class ContentionGuard {
public:
    // `backend` picks the GPU source: rocm reads kfd, cuda asks nvidia-smi, others have none.
    ContentionGuard(ContentionMode mode, const ContentionLimits& limits, std::string backend, ContentionSeams seams);
    // A guard that reads nothing (replays): its column says why.
    static ContentionGuard disabled(std::string why);

    // Before a launch: looks, and while the machine is busy waits poll_s at a time, from one
    // budget of max_wait_s per pair. False (enforce mode only): still busy when the budget ran out.
    // The first look sleeps nothing: it judges what was already watched when that is recent (the
    // pair's preparation since the guard was made, when it began at most 2 windows ago, or the
    // previous launch when it was quiet and ended at most a window ago), else it is an instant
    // look (load average, GPU holders; the CPU share of others needs half a window). The launch's
    // own account then decides, and a disturbed launch is relaunched once. A look after the
    // machine was found busy, or before a relaunch, watches a whole window.
    bool wait_until_quiet(std::ostream& log, const std::string& label);
    // A process group perfgate started and has not waited for yet (a server under test, running
    // through every pass of a serving pair): its CPU and its GPU use are the pair's own, not others'.
    void count_group_as_own(std::int64_t group);
    // Around a launch: counters at its start, and the verdict on what others did until its end.
    void launch_starting();
    bool launch_finished(std::ostream& log, const std::string& label);
    // After a disturbed launch (enforce mode): true the first time in a pair, and the next
    // wait_until_quiet watches a whole window before the launch is repeated; false once it was
    // used, so a pair is relaunched at most once. The column then ends ";relaunched".
    bool relaunch_after_disturbance(std::ostream& log, const std::string& label);

    // Why the pair is SKIP:contended (empty when it is not).
    const std::string& reason() const { return reason_; }
    // The CSV `contention` column: a short, comma-free summary of what was seen, e.g.
    // "idle;load1=0.40/2cpu;other_cpu=3%" or
    // "contended:before;waited=120s;load1=3.20/2cpu;other_cpu=61%;busy=cc1plus:4321;gpu_procs=1(python3:1234)".
    std::string column() const;

private:
    struct Counters {
        probes::CpuCounters cpu;
        double own_s = 0;
        std::chrono::steady_clock::time_point at;
    };
    Counters counters() const;
    bool own_group(std::int64_t group) const;
    // The others' CPU share is judged only over at least `min_share_span` seconds.
    ContentionReading reading_between(const Counters& a, const Counters& b, double min_share_span) const;
    void read_gpu(ContentionReading& r) const;
    // Empty when within the limits; else what is over them. `with_load`: the load average counts
    // only before a launch (after one it holds the runtime's own threads).
    std::string over_limits(const ContentionReading& r, bool with_load) const;
    void note(const ContentionReading& r, const std::string& state);

    std::vector<std::int64_t> own_groups_;  // count_group_as_own
    ContentionMode mode_ = ContentionMode::off;
    ContentionLimits limits_;
    std::string backend_;
    ContentionSeams seams_;
    std::string off_why_ = "off";
    std::chrono::duration<double> waited_{0};  // time spent in wait_until_quiet, looks included
    bool paused_ = false;                      // it had to wait at least once
    bool relaunched_ = false;                  // relaunch_after_disturbance was used
    bool full_look_next_ = false;              // the next look watches a whole window
    Counters launch_start_;
    // Where the next look before a launch may start instead of sleeping a whole window (docs/
    // runner.md, "Contention"): the pair's start, so its preparation (forge, fit) is looked at, or
    // the start of a quiet launch that just ended, which was a look of its own.
    struct CarriedLook {
        Counters from;
        std::chrono::steady_clock::time_point taken;  // when it became usable (the pair start, a launch's end)
        bool after_launch = false;
    };
    std::optional<CarriedLook> carried_;
    // The first counters of the next look: the carried look when recent, else now after a pause;
    // the pause left is slept. `with_load` is false when the look spans a launch (see over_limits).
    Counters start_look(bool& with_load);
    std::optional<ContentionReading> shown_;  // the reading the column reports
    std::string state_ = "unsampled";
    std::string reason_;
};

}  // namespace perfgate::perf
