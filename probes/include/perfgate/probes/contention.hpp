#pragma once
// What else is using the machine: the readings the runner's contention guard (perf/) judges; the
// same GPU holders' readings give the device memory of the runtime's own process group.
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
    // GPU sources: the device memory it holds, in bytes (nvidia-smi's used_memory; the sum of the
    // KFD's vram_<gpu> files); unset when the source gave no figure ("[N/A]", no file).
    std::optional<std::uint64_t> device_bytes;
};

struct ProcessCpu {
    std::string name;
    double cpu_s = 0;  // utime + stime since the process started
    std::int64_t group = 0;  // its process group
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
// /proc/<pid>/stat: comm (may hold spaces and parentheses), the process group, and utime + stime in
// seconds.
std::optional<ProcessCpu> parse_pid_stat(std::string_view stat, double ticks_per_second);
// `nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader,nounits`.
std::vector<OtherProcess> parse_compute_apps(std::string_view csv);

// --- sources ---
std::optional<double> read_load_1min(const Sysroot& root);                 // proc/loadavg
CpuCounters read_cpu_counters(const Sysroot& root);                        // proc/stat, proc/<pid>/stat
// Processes holding /dev/kfd (sys/class/kfd/kfd/proc/<pid>) that still have a proc/<pid>, named
// from proc/<pid>/comm, with the VRAM the driver accounts to them.
std::vector<OtherProcess> read_kfd_processes(const Sysroot& root);
// Processes with a CUDA context; an error when nvidia-smi is missing, fails or hangs.
Expected<std::vector<OtherProcess>> query_nvidia_compute_apps(const std::vector<std::string>& search_dirs,
                                                              std::chrono::milliseconds timeout);

// Whether `backend` has a per-process GPU source (rocm, cuda).
bool has_gpu_holders(std::string_view backend);
// The processes holding the GPU of `backend`: rocm reads the KFD, cuda asks nvidia-smi (an error
// when it is missing, fails or hangs); nullopt for a backend without a per-process list (cpu,
// metal, vulkan).
std::optional<Expected<std::vector<OtherProcess>>> read_gpu_holders(std::string_view backend, const Sysroot& root,
                                                                    const std::vector<std::string>& search_dirs,
                                                                    std::chrono::milliseconds timeout);

// The process group `pid` belongs to (field 5 of proc/<pid>/stat); nullopt when it is gone.
std::optional<std::int64_t> process_group_of(const Sysroot& root, std::int64_t pid);
// The device memory the GPU holders of process group `group` hold together: the runtime being
// measured and whatever it started (core's process runner starts each child in a group of its
// own). nullopt when none of them is in the group with a figure.
std::optional<std::uint64_t> group_device_bytes(const Sysroot& root, const std::vector<OtherProcess>& holders,
                                                std::int64_t group);

// Processes that used at least `min_cpus` over the window between two readings, busiest first,
// leaving out `exclude` (perfgate itself, the runtime).
std::vector<OtherProcess> busy_processes(const CpuCounters& before, const CpuCounters& after, double window_s,
                                         double min_cpus, const std::set<std::int64_t>& exclude);

}  // namespace perfgate::probes
