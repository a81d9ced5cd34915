#include <algorithm>
#include <cstdlib>

#include "perfgate/probes/contention.hpp"
#include "text.hpp"

namespace perfgate::probes {

// The amdgpu driver keeps one folder per process that opened /dev/kfd, named by its pid: a
// process in that list holds GPU queues or memory, whatever it is doing with them. The driver drops
// a folder a moment after its process ended, so a holder without a /proc entry is already gone
// (the runtime we just waited for, typically) and is not counted. Each folder holds one vram_<gpu id>
// file per GPU, the bytes of VRAM the driver accounts to the process there.
std::vector<OtherProcess> read_kfd_processes(const Sysroot& root) {
    std::vector<OtherProcess> out;
    for (const auto& name : root.list("sys/class/kfd/kfd/proc", "")) {
        if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
        if (!root.exists("proc/" + name)) continue;
        OtherProcess p;
        p.pid = std::strtoll(name.c_str(), nullptr, 10);
        if (auto comm = root.read("proc/" + name + "/comm")) p.name = trim(*comm);
        const std::string folder = "sys/class/kfd/kfd/proc/" + name;
        for (const auto& file : root.list(folder, "vram_"))
            if (auto text = root.read(folder + "/" + file))
                if (auto bytes = parse_leading_uint(trim(*text))) p.device_bytes = p.device_bytes.value_or(0) + *bytes;
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace perfgate::probes
