#pragma once
// The facts about a host that travel with every reading. The probe fills them once per run
// (perf/src/host_probe.cpp), the run's host context carries them (perf/host_context.hpp) and each
// result row holds them whole (ResultRow derives from HostRecord), so a host fact is declared
// once: a member here, a row in host_record_fields() and a column in core's column table.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace perfgate {

struct HostRecord {
    std::string hardware;         // full hardware string, e.g. AMD_Radeon_8060S_Graphics_gfx1151_ROCm10.0.0_96GB
    std::string hip_version;
    std::string host;             // short host tag, never contains '_'
    std::string device;           // device (or CPU) name
    std::string device_arch;      // the real architecture: gfx1151, sm_90
    std::optional<std::uint64_t> device_memory_bytes;
    std::string device_memory_source;  // which figure the memory fit came from
    std::optional<bool> uma;           // unified memory
    std::optional<std::uint64_t> host_memory_bytes;
    std::string rocm_version;
    std::string cuda_version;
    std::string driver_version;
    std::string os;
    std::string kernel;
    std::string cpu_model;
    // The machine the reading was taken on (docs/probes.md, "Machine identity"): a keyed one-way
    // hash of the machine's ids, never the ids themselves, and a hash of what decides its speed.
    // Empty in files written before these columns and in mlxcel's files.
    std::string machine_id;
    std::string machine_fingerprint;
};

// A member of HostRecord, by its type.
using HostRecordMember = std::variant<std::string HostRecord::*, std::optional<std::uint64_t> HostRecord::*,
                                      std::optional<bool> HostRecord::*>;

struct HostRecordField {
    std::string_view key;  // its key in a host-context file (perf/host_context.hpp)
    HostRecordMember member;
};

// Every member of HostRecord once, for the readers and writers that go over all of them.
const std::vector<HostRecordField>& host_record_fields();

}  // namespace perfgate
