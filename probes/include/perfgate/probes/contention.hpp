#pragma once
// What else is using the machine: the readings the runner's contention guard (perf/) judges.
// One unit per source (contention_cpu.cpp, contention_kfd.cpp, contention_nvidia.cpp), all read
// through the probe's seams (a Sysroot for files, a search path for tools), so a fake or recorded
// machine can stand in for the live one in tests.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/probes/sysroot.hpp"

namespace perfgate::probes {

// Another process seen on the GPU or busy on the CPU.
struct OtherProcess {
    std::int64_t pid = 0;
    std::string name;  // /proc/<pid>/comm or nvidia-smi's process_name; may be empty
    double cpus = 0;   // CPU sources: CPUs' worth of use over the window (1.0 = one CPU busy)
};

struct ProcessCpu {
    std::string name;
    double cpu_s = 0;  // utime + stime since the process started
};

// Cumulative CPU counters at one instant; two of them make a window.
struct CpuCounters {
    int cpus = 0;        // cpuN lines of /proc/stat (the CPUs the load average is spread over)
    double busy_s = 0;   // non-idle time of all CPUs since boot, seconds
    std::map<std::int64_t, ProcessCpu> processes;
};

// --- parsers (pure, tested on recorded text) ---
std::optional<double> parse_loadavg_1min(std::string_view loadavg);
// The "cpu" total line and the number of "cpuN" lines; nullopt without a total line.
std::optional<CpuCounters> parse_proc_stat(std::string_view stat, double ticks_per_second);
// /proc/<pid>/stat: comm (may hold spaces and parentheses) and utime + stime in seconds.
std::optional<ProcessCpu> parse_pid_stat(std::string_view stat, double ticks_per_second);
// `nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader,nounits`.
std::vector<OtherProcess> parse_compute_apps(std::string_view csv);

// --- sources ---
std::optional<double> read_load_1min(const Sysroot& root);                 // proc/loadavg
CpuCounters read_cpu_counters(const Sysroot& root);                        // proc/stat, proc/<pid>/stat
// Processes holding /dev/kfd (sys/class/kfd/kfd/proc/<pid>) that still have a proc/<pid>, named
// from proc/<pid>/comm.
std::vector<OtherProcess> read_kfd_processes(const Sysroot& root);
// Processes with a CUDA context; an error when nvidia-smi is missing, fails or hangs.
Expected<std::vector<OtherProcess>> query_nvidia_compute_apps(const std::vector<std::string>& search_dirs,
                                                              std::chrono::milliseconds timeout);

// Processes that used at least `min_cpus` over the window between two readings, busiest first,
// leaving out `exclude` (perfgate itself, the runtime).
std::vector<OtherProcess> busy_processes(const CpuCounters& before, const CpuCounters& after, double window_s,
                                         double min_cpus, const std::set<std::int64_t>& exclude);

}  // namespace perfgate::probes
