#pragma once
// The facts of the host a pair runs on, as the probe found them when ctest started, plus the
// run's date and id so that every pair of one ctest run writes to the same file with one run id.
// Stored as JSON by the perf.probe.<suite> setup test and read by every pair test.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "perfgate/core/expected.hpp"

namespace perfgate::perf {

struct HostContext {
    std::string backend;               // rocm, cuda, metal, vulkan, cpu
    std::string host_tag;              // never contains '_'
    std::string hardware;              // mlxcel's full hardware string
    std::string device;                // device (or CPU) name
    std::string device_arch;
    std::optional<std::uint64_t> device_memory_bytes;
    std::optional<std::uint64_t> usable_memory_bytes;  // the fit budget
    bool memory_is_device = false;     // the budget came from a device figure (else host RAM)
    std::string device_memory_source;  // which figure the budget came from (the probe says)
    std::optional<bool> uma;
    std::optional<std::uint64_t> host_memory_bytes;
    std::string cpu_model;
    std::optional<int> cpu_cores;      // physical cores this process may use (the default -t of a cpu suite)
    std::string rocm_version, hip_version, cuda_version, driver_version, os, kernel;
    std::string machine_id;            // the probe's keyed hashes (docs/probes.md, "Machine identity");
    std::string machine_fingerprint;   // empty when unknown: the gate then keeps one history per host tag
    std::string date;                  // YYYY-MM-DD, taken once per run
    std::string run_id;
    std::string replay;                // non-empty: the facts were replayed from this recording
};

Expected<HostContext> read_host_context(const std::filesystem::path& path);
Status write_host_context(const std::filesystem::path& path, const HostContext& host);

// Today's date (local time) and a fresh run id ("<date>T<hhmmss>-<pid>").
std::string today();
std::string new_run_id();

}  // namespace perfgate::perf
