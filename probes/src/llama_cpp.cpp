#include "perfgate/probes/llama_cpp.hpp"

#include <regex>

#include "text.hpp"

namespace perfgate::probes {

namespace {
// "N" MiB as bytes; nullopt when the digits do not fit (a size no device has).
std::optional<std::uint64_t> mib_bytes(const std::string& digits) {
    if (auto n = parse_leading_uint(digits)) return checked_multiply(*n, kMiB);
    return std::nullopt;
}

std::string backend_word(const std::string& word) {
    const auto lower = to_lower(word);
    return lower == "hip" ? "rocm" : lower;
}

LlamaCppDevice& device_at(LlamaCppDevices& out, int index) {
    for (auto& d : out.devices)
        if (d.index == index) return d;
    out.devices.push_back(LlamaCppDevice{});
    out.devices.back().index = index;
    return out.devices.back();
}
}  // namespace

LlamaCppDevices parse_llama_cpp_devices(std::string_view raw) {
    static const std::regex found_re(R"(ggml_cuda_init: found (\d+) (ROCm|CUDA) devices(?: \(Total VRAM: (\d+) MiB\))?:)");
    static const std::regex failed_re(R"(ggml_cuda_init: (failed to initialize (ROCm|CUDA): .*)$)");
    // Old and new device lines: optional ", Wave Size: N" and ", VRAM: N MiB" suffixes.
    static const std::regex device_re(
        R"(^\s*Device (\d+): (.+?), (?:(gfx[0-9a-f]+) \((0x[0-9a-f]+)\)|compute capability (\d+\.\d+)), VMM: (?:yes|no)(?:, Wave Size: \d+)?(?:, VRAM: (\d+) MiB)?\s*$)");
    static const std::regex vulkan_re(R"(^ggml_vulkan: (\d+) = (.+?) \| uma: ([01]))");
    static const std::regex radv_re(R"(\(RADV (GFX[0-9A-F]+)\))");
    static const std::regex list_re(R"(^\s*(ROCm|CUDA|Vulkan|Metal|MTL)(\d+): (.+) \((\d+) MiB, \d+ MiB free\)\s*$)");
    LlamaCppDevices out;
    for (const auto& line : split_lines(strip_ansi(raw))) {
        std::smatch m;
        if (std::regex_search(line, m, found_re)) {
            out.backend = backend_word(m[2].str());
            if (m[3].matched) out.total_vram_bytes = mib_bytes(m[3].str());
        } else if (std::regex_search(line, m, failed_re)) {
            out.init_failure = m[1].str();
        } else if (std::regex_match(line, m, device_re)) {
            const auto index = parse_index(m[1].str());
            if (!index) continue;
            auto& d = device_at(out, *index);
            d.name = m[2].str();
            if (m[3].matched) {
                d.gfx_arch = m[3].str();
                d.pci_id = parse_hex_u32(m[4].str());
            }
            if (m[5].matched) d.compute_cap = m[5].str();
            if (m[6].matched) d.vram_bytes = mib_bytes(m[6].str());
        } else if (std::regex_search(line, m, vulkan_re)) {
            const auto index = parse_index(m[1].str());
            if (!index) continue;
            out.backend = out.backend.value_or("vulkan");
            auto& d = device_at(out, *index);
            std::string name = m[2].str();
            std::smatch tag;
            if (std::regex_search(name, tag, radv_re)) d.gfx_arch = to_lower(tag[1].str());
            // The name ends with the driver tags: "(RADV GFX1151) (radv)" or "(AMD open-source driver)".
            while (name.size() > 1 && name.back() == ')') {
                const auto open = name.rfind(" (");
                if (open == std::string::npos) break;
                name = trim(name.substr(0, open));
            }
            d.name = name;
            d.uma = m[3].str() == "1";
        } else if (std::regex_match(line, m, list_re)) {
            const auto kind = m[1].str();
            const auto index = parse_index(m[2].str());
            if (!index) continue;
            out.backend = out.backend.value_or(kind == "MTL" ? "metal" : backend_word(kind));
            auto& d = device_at(out, *index);
            if (d.name.empty()) d.name = m[3].str();
            d.vram_bytes = mib_bytes(m[4].str());
        }
    }
    return out;
}

}  // namespace perfgate::probes
