// nvidia-smi outputs: each input goes to both the default-table parser and the csv-query parser.
// Memory sizes must be the printed MiB count times 2^20, never a wrapped value.
#include <cstddef>
#include <cstdint>
#include <regex>
#include <string>

#include "fuzz_check.hpp"
#include "perfgate/probes/nvidia_smi.hpp"
#include "text.hpp"

using perfgate::fuzz::check;
using perfgate::fuzz::one_clean_line;

namespace {
constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;

void check_gpu(const perfgate::probes::NvidiaGpu& g, const std::string& text) {
    check(!g.name.empty() && one_clean_line(g.name), "nvidia-smi GPU name is a non-empty single line", g.name);
    if (g.memory_total_bytes)
        check(*g.memory_total_bytes % kMiB == 0 && perfgate::fuzz::printed_number(text, *g.memory_total_bytes / kMiB),
              "nvidia-smi memory is the printed MiB count times 2^20");
    if (g.compute_cap) {
        static const std::regex cap(R"([0-9]+\.[0-9]+)");
        check(std::regex_match(*g.compute_cap, cap), "compute capability is N.M", *g.compute_cap);
    }
    if (g.driver_version) check(!g.driver_version->empty() && one_clean_line(*g.driver_version), "driver version");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view raw(reinterpret_cast<const char*>(data), size);
    const std::string text = perfgate::probes::strip_ansi(raw);
    {
        const auto t = perfgate::probes::parse_nvidia_smi(raw);
        for (const auto& g : t.gpus) check_gpu(g, text);
        if (t.cuda_version) check(!t.cuda_version->empty() && one_clean_line(*t.cuda_version), "CUDA version");
    }
    {
        for (const auto& g : perfgate::probes::parse_nvidia_smi_csv(raw)) check_gpu(g, text);
    }
    return 0;
}
