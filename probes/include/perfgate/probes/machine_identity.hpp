#pragma once
// Which machine a run measured on, and what decides its speed (docs/probes.md, "Machine identity").
// A host tag names a kind of host ("cpu-epyc"); two virtual machines with the same tag can differ by
// a third in speed, so a run's history must be told apart by machine. Both values are keyed one-way
// hashes: a results CSV is committed, and a machine's ids must not be published in it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perfgate::probes {

class Sysroot;

// The raw inputs, read under the sysroot. They stay inside the probe: only their hashes leave it.
struct MachineObservations {
    std::optional<std::string> machine_id_file;  // etc/machine-id (systemd; world-readable)
    std::optional<std::string> product_uuid;     // sys/class/dmi/id/product_uuid (root only on most systems)
    std::vector<std::string> gpu_uuids;          // NVIDIA proc/driver/nvidia/gpus/*/information, AMD unique_id
    // The first processor's identity lines of /proc/cpuinfo, as "key", "value" in file order:
    // vendor, family, model, stepping, microcode and flags (x86), or the ARM equivalents.
    std::vector<std::pair<std::string, std::string>> cpu_identity;
    std::optional<int> logical_cpus;             // "processor" entries
    std::optional<int> physical_cores;
};

MachineObservations read_machine_observations(const Sysroot& root);
// The first processor block's identity lines (pure; tested on captured cpuinfo).
std::vector<std::pair<std::string, std::string>> parse_cpu_identity(std::string_view cpuinfo);

// 16 lowercase hex characters of a name-based SHA-1 UUID in perfgate's own namespace (the key):
// the same text gives the same digest on every machine and in every version of perfgate.
std::string keyed_digest(std::string_view purpose, std::string_view text);

// The machine id: a digest of machine-id, product_uuid and the GPU UUIDs that could be read;
// nullopt when none could. Which sources went in is listed (names only) in `sources`.
std::optional<std::string> machine_id(const MachineObservations& m, std::vector<std::string>* sources = nullptr);

// What the fingerprint covers, one "name=value" line per field in this order (values as the probe
// decided them). The list is docs/probes.md's table.
struct SpeedFacts {
    std::string backend;
    std::optional<std::string> cpu_model, device_name, device_arch, kernel, driver_version, cuda_version, rocm_version;
    std::optional<std::uint64_t> host_memory_bytes, device_memory_bytes;
};
std::vector<std::pair<std::string, std::string>> fingerprint_fields(const SpeedFacts& facts, const MachineObservations& m);
std::string machine_fingerprint(const SpeedFacts& facts, const MachineObservations& m);

}  // namespace perfgate::probes
