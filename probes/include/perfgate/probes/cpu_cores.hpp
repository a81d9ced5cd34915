#pragma once
// How many cores a CPU runtime can use: physical cores from /proc/cpuinfo, CPUs from the
// scheduler's affinity mask. The runner picks llama-bench's default thread count from these.
#include <optional>
#include <string_view>

namespace perfgate::probes {

// Distinct ("physical id", "core id") pairs; without those keys (ARM, some VMs) the "processor"
// entries. nullopt when the text names no processor at all.
std::optional<int> parse_physical_cores(std::string_view cpuinfo);

// CPUs this process may run on (sched_getaffinity): a container or taskset may allow fewer than
// the machine has. nullopt when the call fails.
std::optional<int> affinity_cpu_count();

}  // namespace perfgate::probes
