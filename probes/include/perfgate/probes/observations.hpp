#pragma once
// Everything the probe gathered, before any decision. decide_host_facts() is pure, so the
// precedence rules are tested without launching anything.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/probes/amd_smi.hpp"
#include "perfgate/probes/llama_cpp.hpp"
#include "perfgate/probes/machine_identity.hpp"
#include "perfgate/probes/metal_init.hpp"
#include "perfgate/probes/mlxcel.hpp"
#include "perfgate/probes/nvidia_smi.hpp"
#include "perfgate/probes/rocm_smi.hpp"
#include "perfgate/probes/rocminfo.hpp"

namespace perfgate::probes {

struct RuntimeReport {
    std::string kind;  // "mlxcel", "llama.cpp"
    std::optional<MlxcelBackendReport> mlxcel;
    std::optional<LlamaCppDevices> llama;
    std::optional<MetalInitReport> metal;
};

struct Observations {
    std::optional<RuntimeReport> runtime;
    std::optional<RocminfoReport> rocminfo;
    std::optional<RocmSmiReport> rocm_smi;
    std::optional<AmdSmiReport> amd_smi;
    std::optional<NvidiaSmiTable> nvidia_table;
    std::vector<NvidiaGpu> nvidia_csv;
    std::optional<std::string> sysctl_brand;       // machdep.cpu.brand_string
    std::optional<std::uint64_t> sysctl_memsize;   // hw.memsize
    std::optional<std::string> sysctl_os;          // kern.ostype + kern.osproductversion
    std::optional<std::string> sysctl_kernel;      // kern.osrelease
    std::optional<std::uint64_t> sysfs_vram_bytes; // mem_info_vram_total
    std::optional<std::uint64_t> sysfs_gtt_bytes;  // mem_info_gtt_total
    std::optional<std::uint32_t> sysfs_pci_device; // device/device of an AMD card
    std::optional<std::string> rocm_version_file;
    std::optional<std::string> hip_version;
    std::optional<std::string> hsa_override_gfx_version;  // the environment variable, if set
    std::optional<std::string> os;
    std::optional<std::string> kernel;
    std::optional<std::string> cpu_model;
    std::optional<std::uint64_t> host_memory_bytes;
    MachineObservations machine;  // hashed into machine_id and machine_fingerprint, never reported
    std::vector<std::string> warnings;
};

struct HeadroomChoice {
    std::optional<double> explicit_factor;   // --headroom / ProbeOptions
    std::string thresholds_dir;              // where thresholds/<host_tag>.json lives ("" = none)
    std::optional<std::string> host_tag;     // --host-tag: replaces the derived tag (validated by the caller)
};

struct HostFacts;
HostFacts decide_host_facts(const Observations& obs, const HeadroomChoice& headroom);

}  // namespace perfgate::probes
