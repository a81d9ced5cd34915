#include "hardware_string.hpp"

#include "perfgate/core/text.hpp"

#include <regex>
#include <vector>

namespace perfgate::report {
namespace {

std::string join_spaces(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) {
        if (!out.empty()) out += ' ';
        out += p;
    }
    return out;
}

}  // namespace

HardwareFacts parse_hardware_string(std::string_view hardware) {
    HardwareFacts f;
    if (hardware.empty()) return f;
    std::vector<std::string> parts;  // the '_'-separated fields (std::regex_match wants strings)
    for (const auto field : perfgate::split(hardware, '_')) parts.emplace_back(field);
    static const std::regex gib_re("([0-9]+)GB");
    static const std::regex gfx_re("gfx[0-9a-f]+|gfxunknown");
    static const std::regex rocm_re("ROCm([0-9][0-9.]*)");
    static const std::regex cuda_re("CUDA([0-9]+\\.[0-9]+)");
    std::smatch m;
    // The memory figure is the last field when it reads <N>GB.
    if (!parts.empty() && std::regex_match(parts.back(), m, gib_re)) {
        f.memory_gib = std::stoi(m[1].str());
        parts.pop_back();
    }
    std::vector<std::string> name;
    for (const auto& p : parts) {
        if (std::regex_match(p, m, gfx_re)) f.gpu_target = p;
        else if (std::regex_match(p, m, rocm_re)) f.rocm_release = m[1].str();
        else if (std::regex_match(p, m, cuda_re)) f.cuda_release = m[1].str();
        else name.push_back(p);
    }
    f.device = join_spaces(name);
    if (f.memory_gib) {
        // mlxcel writes device memory on the ROCm branch (a gfx field), host RAM otherwise.
        f.memory_kind = !f.gpu_target.empty() ? HardwareFacts::MemoryKind::device : HardwareFacts::MemoryKind::host;
    }
    return f;
}

}  // namespace perfgate::report
