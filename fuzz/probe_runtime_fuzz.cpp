// What runtimes print about their devices, each input given to every parser: llama.cpp's device
// lines, mlxcel's MLXCEL_DEBUG_KERNEL_BACKEND lines and ggml's Metal init block.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "fuzz_check.hpp"
#include "perfgate/probes/llama_cpp.hpp"
#include "perfgate/probes/metal_init.hpp"
#include "perfgate/probes/mlxcel.hpp"
#include "text.hpp"

using perfgate::fuzz::check;
using perfgate::fuzz::one_clean_line;

namespace {
constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;

bool mib_as_printed(const std::string& text, std::uint64_t bytes) {
    return bytes % kMiB == 0 && perfgate::fuzz::printed_number(text, bytes / kMiB);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view raw(reinterpret_cast<const char*>(data), size);
    const std::string text = perfgate::probes::strip_ansi(raw);
    {
        {
            const auto r = perfgate::probes::parse_llama_cpp_devices(raw);
            static const std::set<std::string> backends{"rocm", "cuda", "vulkan", "metal"};
            if (r.backend) check(backends.count(*r.backend) == 1, "llama.cpp backend is a known one", *r.backend);
            if (r.total_vram_bytes) check(mib_as_printed(text, *r.total_vram_bytes), "llama.cpp total VRAM as printed");
            std::set<int> seen;
            for (const auto& d : r.devices) {
                check(seen.insert(d.index).second && d.index >= 0, "llama.cpp device indices are unique and >= 0");
                check(one_clean_line(d.name), "llama.cpp device name is one line", d.name);
                if (d.vram_bytes) check(mib_as_printed(text, *d.vram_bytes), "llama.cpp device VRAM as printed");
                if (d.gfx_arch) check(d.gfx_arch->rfind("gfx", 0) == 0, "gfx arch starts with gfx", *d.gfx_arch);
            }
        }
        {
            const auto r = perfgate::probes::parse_mlxcel_backend(raw);
            for (const auto& arch : r.compiled_for) check(arch.rfind("gfx", 0) == 0, "compiled_for lists gfx targets", arch);
            if (r.hip_arch) check(r.hip_arch->rfind("gfx", 0) == 0, "HIP architecture starts with gfx");
            // mlxcel prints GiB with two decimals: a reported size is at least one byte, and its
            // whole GiB are within one of a number printed (an overflowed conversion gives 2^63 or 0).
            if (r.device_memory_bytes) {
                const std::uint64_t gib = *r.device_memory_bytes >> 30;
                check(*r.device_memory_bytes > 0 &&
                          (perfgate::fuzz::printed_number(text, gib) || (gib > 0 && perfgate::fuzz::printed_number(text, gib - 1))),
                      "mlxcel device memory is the printed GiB");
            }
            if (r.device_name) check(one_clean_line(*r.device_name), "mlxcel device name is one line");
        }
        {
            const auto r = perfgate::probes::parse_metal_init(raw);
            if (r.recommended_max_working_set_mb)
                check(std::isfinite(*r.recommended_max_working_set_mb) && *r.recommended_max_working_set_mb >= 0,
                      "Metal working set is a finite non-negative number");
            if (r.device_name) check(!r.device_name->empty() && one_clean_line(*r.device_name), "Metal device name");
        }
    }
    return 0;
}
