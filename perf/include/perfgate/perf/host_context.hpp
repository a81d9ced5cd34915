#pragma once
// The facts of the host a pair runs on, as the probe found them when ctest started, plus the
// run's date and id so that every pair of one ctest run writes to the same file with one run id.
// Stored as JSON by the perf.probe.<suite> setup test and read by every pair test.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/host_record.hpp"

namespace perfgate::perf {

// The host facts that every row carries are the HostRecord base (core/host_record.hpp): the
// context passes them to each row whole. What follows is what a run needs besides them.
struct HostContext : HostRecord {
    std::string backend;               // rocm, cuda, metal, vulkan, cpu
    std::optional<std::uint64_t> usable_memory_bytes;  // the fit budget
    bool memory_is_device = false;     // the budget came from a device figure (else host RAM)
    std::optional<int> cpu_cores;      // physical cores this process may use (the default -t of a cpu suite)
    std::string date;                  // YYYY-MM-DD, taken once per run
    std::string run_id;
    std::string replay;                // non-empty: the facts were replayed from this recording
};

// Errors name the file and the line of the bad value; a value of the wrong type is an error, not
// a silent default. null (an unknown fact) reads as unknown.
Expected<HostContext> read_host_context(const std::filesystem::path& path);
Status write_host_context(const std::filesystem::path& path, const HostContext& host);

// Today's date (local time) and a fresh run id ("<date>T<hhmmss>-<pid>").
std::string today();
std::string new_run_id();

}  // namespace perfgate::perf
