// The precedence rules: the runtime's own report wins over system tools; each field records
// which source decided it. Pure: no processes, no files (except thresholds/ for the headroom).
#include <fmt/format.h>

#include "amd_chips.hpp"
#include "device_memory.hpp"
#include "perfgate/probes/host_facts.hpp"
#include "host_tag.hpp"
#include "perfgate/probes/observations.hpp"

namespace perfgate::probes {

namespace {
std::string sm_arch(const std::string& compute_cap) {
    std::string digits;
    for (char c : compute_cap)
        if (c != '.') digits.push_back(c);
    return "sm_" + digits;
}

struct Draft {
    std::optional<Backend> backend;
    std::string backend_source;
    std::optional<std::string> name, reported_arch, arch;
    std::optional<std::uint32_t> chip_id;
    std::optional<MemoryFigure> figure;
    std::optional<bool> uma;
};

// A backend as a runtime's output names it: one of perfgate's names, or HIP's name for rocm.
std::optional<Backend> reported_backend(std::string_view text) {
    if (text == "hip") return Backend::rocm;
    return backend_from_string(text);
}

void set_if_empty(std::optional<std::string>& field, const std::optional<std::string>& value) {
    if (!field && value && !value->empty()) field = value;
}

void from_runtime(const RuntimeReport& rt, Draft& d, std::vector<std::string>& warnings) {
    const auto source = "runtime:" + rt.kind;
    if (rt.mlxcel) {
        const auto& m = *rt.mlxcel;
        if (m.backend) {
            if (auto b = reported_backend(*m.backend)) { d.backend = b; d.backend_source = source; }
            else warnings.push_back(fmt::format("{} reported an unknown backend '{}'", rt.kind, *m.backend));
        } else if (m.runtime_device && m.runtime_device->find("Metal") != std::string::npos) {
            d.backend = Backend::metal;
            d.backend_source = source + " (Runtime device line)";
        } else {
            warnings.push_back(rt.kind + " printed no backend line; falling back to system tools");
        }
        d.name = m.device_name;
        d.reported_arch = m.hip_arch;
        if (m.device_memory_bytes) d.figure = MemoryFigure{*m.device_memory_bytes, source + " (GPU line)"};
    }
    if (rt.llama) {
        const auto& l = *rt.llama;
        if (l.init_failure) warnings.push_back(rt.kind + ": " + *l.init_failure);
        if (!l.devices.empty() && l.backend) {
            if (auto b = reported_backend(*l.backend)) { d.backend = b; d.backend_source = source; }
            const auto& dev = l.devices.front();
            d.name = dev.name;
            if (dev.gfx_arch) d.reported_arch = dev.gfx_arch;
            if (dev.compute_cap) d.arch = sm_arch(*dev.compute_cap);
            if (dev.uma) d.uma = dev.uma;
            if (dev.vram_bytes) d.figure = MemoryFigure{*dev.vram_bytes, source + " (device VRAM)"};
            else if (l.total_vram_bytes && l.devices.size() == 1) d.figure = MemoryFigure{*l.total_vram_bytes, source + " (Total VRAM)"};
        }
    }
    if (rt.metal && (rt.metal->device_name || rt.metal->recommended_max_working_set_mb) && !d.backend) {
        d.backend = Backend::metal;
        d.backend_source = source + " (Metal init)";
        d.name = rt.metal->device_name;
        d.uma = rt.metal->unified_memory;
    }
}

// Fills the AMD fields from rocminfo, rocm-smi and sysfs where the runtime left them empty.
void from_amd_tools(const Observations& obs, Draft& d) {
    const auto gpus = obs.rocminfo ? obs.rocminfo->gpus() : std::vector<RocmAgent>{};
    if (!d.backend && !gpus.empty()) { d.backend = Backend::rocm; d.backend_source = "rocminfo"; }
    const RocmSmiCard* card = obs.rocm_smi && !obs.rocm_smi->cards.empty() ? &obs.rocm_smi->cards.front() : nullptr;
    if (!d.backend && card) { d.backend = Backend::rocm; d.backend_source = "rocm-smi"; }
    if (d.backend != Backend::rocm && d.backend != Backend::vulkan) return;
    if (!gpus.empty()) {
        const auto& g = gpus.front();
        set_if_empty(d.name, g.marketing_name.empty() ? std::nullopt : std::optional<std::string>(g.marketing_name));
        set_if_empty(d.reported_arch, g.name.rfind("gfx", 0) == 0 ? std::optional<std::string>(g.name) : std::nullopt);
        if (!d.chip_id) d.chip_id = g.chip_id;
        if (g.apu && !d.uma) d.uma = g.apu;
        if (!d.figure && g.largest_global_pool_bytes)
            d.figure = MemoryFigure{*g.largest_global_pool_bytes, "rocminfo (largest GLOBAL pool of the GPU agent)"};
    }
    if (card) {
        set_if_empty(d.name, card->card_series);
        set_if_empty(d.reported_arch, card->gfx_version);
        if (!d.chip_id) d.chip_id = card->device_id;
    }
    if (!d.chip_id) d.chip_id = obs.sysfs_pci_device;
    if (!d.figure && card && card->vram_total_bytes && *card->vram_total_bytes > 0)
        d.figure = MemoryFigure{*card->vram_total_bytes, "rocm-smi VRAM Total Memory"};
    if (!d.figure && obs.sysfs_vram_bytes && *obs.sysfs_vram_bytes > 0)
        d.figure = MemoryFigure{*obs.sysfs_vram_bytes, "sysfs mem_info_vram_total"};
}

void from_nvidia(const Observations& obs, Draft& d, HostFacts& f) {
    const NvidiaGpu* csv = obs.nvidia_csv.empty() ? nullptr : &obs.nvidia_csv.front();
    const NvidiaGpu* table = obs.nvidia_table && !obs.nvidia_table->gpus.empty() ? &obs.nvidia_table->gpus.front() : nullptr;
    if (!d.backend && (csv || table)) { d.backend = Backend::cuda; d.backend_source = "nvidia-smi"; }
    if (obs.nvidia_table) {
        f.cuda_version = obs.nvidia_table->cuda_version;
        f.driver_version = obs.nvidia_table->driver_version;
    }
    if (csv && csv->driver_version && !f.driver_version) f.driver_version = csv->driver_version;
    if (d.backend != Backend::cuda) return;
    const NvidiaGpu* gpu = csv ? csv : table;
    if (!gpu) return;
    set_if_empty(d.name, gpu->name);
    if (!d.arch && csv && csv->compute_cap) d.arch = sm_arch(*csv->compute_cap);
    std::optional<std::uint64_t> total;
    if (csv) total = csv->memory_total_bytes;
    if (!total && table) total = table->memory_total_bytes;
    if (!d.figure && total) d.figure = MemoryFigure{*total, "nvidia-smi memory.total"};
}

void decide_memory(const Observations& obs, Draft& d, HostFacts& f) {
    const auto host = f.host_memory_bytes;
    switch (*d.backend) {
        case Backend::rocm:
        case Backend::vulkan:
            if (d.chip_id)
                if (auto chip = lookup_amd_chip(*d.chip_id); chip && !d.uma) d.uma = chip->apu;
            f.vram_bytes = obs.sysfs_vram_bytes;
            f.gtt_bytes = obs.sysfs_gtt_bytes;
            if (obs.rocm_smi && !obs.rocm_smi->cards.empty()) {
                if (!f.vram_bytes) f.vram_bytes = obs.rocm_smi->cards.front().vram_total_bytes;
                if (!f.gtt_bytes) f.gtt_bytes = obs.rocm_smi->cards.front().gtt_total_bytes;
            }
            d.figure = choose_amd_device_memory(UmaInputs{d.figure, f.vram_bytes, f.gtt_bytes, host, d.uma.value_or(false)});
            if (!d.figure && d.uma.value_or(false) && host) d.figure = MemoryFigure{*host, "host MemTotal (unified memory)"};
            if (d.uma.value_or(false) && d.figure && d.figure->bytes <= 4ULL << 30 && !f.gtt_bytes)
                f.warnings.push_back("unified memory with a small device figure and no GTT figure: the budget may be far too low");
            break;
        case Backend::cuda:
            if (d.figure) {
                if (!d.uma) d.uma = false;
            } else if (host) {
                // GB10: NVML has no memory figures; the GPU allocates from the unified host pool.
                d.uma = true;
                d.figure = MemoryFigure{*host, "host MemTotal (unified memory: nvidia-smi reports no memory figure)"};
            }
            break;
        case Backend::metal:
            d.uma = true;
            if (obs.runtime && obs.runtime->metal && obs.runtime->metal->recommended_max_working_set_mb) {
                if (auto b = resolve_metal_working_set(*obs.runtime->metal->recommended_max_working_set_mb, host))
                    d.figure = MemoryFigure{*b, "runtime recommendedMaxWorkingSetSize"};
                if (!host) f.warnings.push_back("recommendedMaxWorkingSetSize unit is ambiguous without hw.memsize; took the smaller reading");
            }
            if (!d.figure && host) d.figure = MemoryFigure{*host / 4 * 3, "75% of hw.memsize"};
            break;
        case Backend::cpu:
            if (host) d.figure = MemoryFigure{*host, "host MemTotal"};
            break;
    }
}
}  // namespace

HostFacts decide_host_facts(const Observations& obs, const HeadroomChoice& headroom) {
    HostFacts f;
    f.warnings = obs.warnings;
    f.os = obs.sysctl_os ? obs.sysctl_os : obs.os;
    f.kernel = obs.sysctl_kernel ? obs.sysctl_kernel : obs.kernel;
    f.cpu_model = obs.sysctl_brand ? obs.sysctl_brand : obs.cpu_model;
    f.host_memory_bytes = obs.sysctl_memsize ? obs.sysctl_memsize : obs.host_memory_bytes;
    if (obs.rocminfo) f.hsa_runtime_version = obs.rocminfo->hsa_runtime_version;
    f.rocm_version = obs.rocm_version_file;
    if (!f.rocm_version && obs.amd_smi) f.rocm_version = obs.amd_smi->rocm_version;
    f.hip_version = obs.hip_version;

    Draft d;
    if (obs.runtime) from_runtime(*obs.runtime, d, f.warnings);
    from_amd_tools(obs, d);
    from_nvidia(obs, d, f);
    if (!d.backend && obs.sysctl_brand && obs.sysctl_brand->rfind("Apple", 0) == 0) {
        d.backend = Backend::metal;
        d.backend_source = "sysctl";
    }
    if (d.backend == Backend::metal) set_if_empty(d.name, obs.sysctl_brand);
    if (!d.backend) { d.backend = Backend::cpu; d.backend_source = "default (no GPU found by any source)"; }

    if (*d.backend == Backend::rocm || *d.backend == Backend::vulkan) {
        if (obs.rocminfo && obs.rocminfo->kernel_module_version) f.driver_version = obs.rocminfo->kernel_module_version;
        else if (obs.rocm_smi && obs.rocm_smi->driver_version) f.driver_version = obs.rocm_smi->driver_version;
        // The chip id names the silicon; the gfx name follows HSA_OVERRIDE_GFX_VERSION.
        const auto chip = d.chip_id ? lookup_amd_chip(*d.chip_id) : std::nullopt;
        if (chip) {
            d.arch = chip->gfx_arch;
            if (d.reported_arch && *d.reported_arch != chip->gfx_arch) {
                f.reported_arch = d.reported_arch;
                f.warnings.push_back(fmt::format(
                    "the stack reports {} but chip id {} is {}{}; the host is identified by the chip id",
                    *d.reported_arch, format_chip_id(chip->chip_id), chip->gfx_arch,
                    obs.hsa_override_gfx_version ? " (HSA_OVERRIDE_GFX_VERSION=" + *obs.hsa_override_gfx_version + ")" : ""));
            }
        } else if (!d.arch) {
            d.arch = d.reported_arch;
        }
    }
    if (d.chip_id) f.device_chip_id = format_chip_id(*d.chip_id);

    f.backend = *d.backend;
    f.backend_source = d.backend_source;
    decide_memory(obs, d, f);
    if (f.backend != Backend::cpu) {
        f.device_name = d.name;
        f.device_arch = d.arch;
        f.uma = d.uma;
    }
    if (d.figure) {
        f.device_memory_bytes = d.figure->bytes;
        f.device_memory_source = d.figure->source;
    }

    HostIdentity id{f.backend, f.device_name, f.device_arch, d.chip_id, f.cpu_model, f.rocm_version,
                    f.cuda_version, f.device_memory_bytes, f.host_memory_bytes};
    f.host_tag = make_host_tag(id);
    if (headroom.host_tag) {
        // An operator's name for the host (two identical boxes, a renamed fleet member): it picks the
        // thresholds file and names the results CSV, so it is set before the headroom is read.
        f.warnings.push_back(fmt::format("host tag {} given by --host-tag (derived: {})", *headroom.host_tag, f.host_tag));
        f.host_tag = *headroom.host_tag;
    }
    f.hardware = make_hardware_string(id);

    f.headroom_factor = default_memory_headroom;
    if (headroom.explicit_factor) {
        f.headroom_factor = *headroom.explicit_factor;
        f.headroom_source = "option";
    } else if (auto from_file = read_memory_headroom(headroom.thresholds_dir, f.host_tag); !from_file) {
        f.warnings.push_back(from_file.error().message + "; using the default headroom");
    } else if (*from_file) {
        f.headroom_factor = **from_file;
        f.headroom_source = fmt::format("{}/{}.json", headroom.thresholds_dir, f.host_tag);
    }
    if (f.device_memory_bytes) f.usable_memory_bytes = apply_headroom(*f.device_memory_bytes, f.headroom_factor);

    f.machine_id = machine_id(obs.machine, &f.machine_id_sources);
    const SpeedFacts speed{to_string(f.backend), f.cpu_model,   f.device_name,  f.device_arch,
                           f.kernel,              f.driver_version, f.cuda_version, f.rocm_version,
                           f.host_memory_bytes,   f.device_memory_bytes};
    f.machine_fingerprint = machine_fingerprint(speed, obs.machine);
    return f;
}

}  // namespace perfgate::probes
