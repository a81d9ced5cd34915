#include "host_tag.hpp"

#include "perfgate/core/host_tag_rule.hpp"

#include <cmath>
#include <regex>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "amd_chips.hpp"
#include "text.hpp"

namespace perfgate::probes {

namespace {
constexpr double gib = 1073741824.0;

std::vector<std::string> words_of(const std::string& text) {
    // "(R)" and "(TM)" trademarks are noise, not words.
    static const std::regex trademark_re(R"(\((?:R|r|TM|tm)\))");
    std::istringstream in(std::regex_replace(text, trademark_re, " "));
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

// Lowercase, keep [a-z0-9], everything else becomes a single '-'. Applied to whole words only,
// so a word is never cut in half.
std::string slug(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) {
        for (char c : to_lower(w)) {
            const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (keep) out.push_back(c);
            else if (!out.empty() && out.back() != '-') out.push_back('-');
        }
        if (!out.empty() && out.back() != '-') out.push_back('-');
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out;
}

bool iequals(const std::string& a, const char* b) { return to_lower(a) == b; }

std::string amd_tag(const HostIdentity& id) {
    if (id.chip_id)
        if (auto chip = lookup_amd_chip(*id.chip_id); chip && *chip->family_tag && id.device_arch == chip->gfx_arch)
            return fmt::format("{}-{}", chip->family_tag, chip->gfx_arch);
    if (id.device_arch == "gfx1151") return "strixhalo-gfx1151";  // mlxcel's tag for Strix Halo
    if (id.device_arch) return "amd-" + slug({*id.device_arch});
    return {};
}

// "NVIDIA H100 80GB HBM3" -> h100; "NVIDIA Tesla V100-PCIE-32GB" -> v100; "NVIDIA GB10" -> gb10.
std::string nvidia_tag(const std::string& name) {
    static const std::regex model_re(R"(^([A-Za-z]{1,3}[0-9]{2,4}[A-Za-z]?)(?:-.*)?$)");
    std::vector<std::string> rest;
    for (const auto& w : words_of(name)) {
        if (iequals(w, "nvidia") || iequals(w, "tesla")) continue;
        std::smatch m;
        if (rest.empty() && std::regex_match(w, m, model_re)) return to_lower(m[1].str());
        rest.push_back(w);
    }
    if (rest.size() > 4) rest.resize(4);
    const auto s = slug(rest);
    return s.empty() ? "nvidia" : "nvidia-" + s;
}

// "Apple M1 Max" -> m1max, "Apple M4" -> m4 (mlxcel's Apple tags join the words).
std::string apple_tag(const std::string& brand) {
    std::string joined;
    for (const auto& w : words_of(brand))
        if (!iequals(w, "apple")) joined += w;
    const auto s = slug({joined});
    return s.empty() ? "apple" : s;
}

// "AMD EPYC 9474F 48-Core Processor" -> cpu-epyc; "Intel(R) Xeon(R) Platinum ..." -> cpu-xeon.
std::string cpu_tag(const std::optional<std::string>& model) {
    static const std::regex noise_re(R"(^(amd|intel|genuine|authentic|cpu|processor|\d+-core|@.*)$)", std::regex::icase);
    static const std::regex has_letter_re(R"([A-Za-z])");
    if (model)
        for (const auto& w : words_of(*model))
            if (!std::regex_match(w, noise_re) && std::regex_search(w, has_letter_re))
                if (auto s = slug({w}); !s.empty()) return "cpu-" + s;
    return "cpu";
}

std::string rounded_gb(std::optional<std::uint64_t> bytes) {
    if (!bytes || *bytes == 0) return {};
    return fmt::format("_{}GB", std::llround(static_cast<double>(*bytes) / gib));
}

std::string underscores(std::string s) {
    for (auto& c : s)
        if (c == ' ') c = '_';
    return s;
}

std::string derived_host_tag(const HostIdentity& id) {
    std::string tag;
    switch (id.backend) {
        case Backend::rocm:
        case Backend::vulkan:
            tag = amd_tag(id);
            if (tag.empty() && id.device_name) {
                const auto s = slug(words_of(*id.device_name));
                tag = id.backend == Backend::rocm && s.rfind("amd", 0) != 0 ? "amd-" + s : s;
            }
            break;
        case Backend::cuda:
            if (id.device_name) tag = nvidia_tag(*id.device_name);
            break;
        case Backend::metal:
            if (id.device_name || id.cpu_model) tag = apple_tag(id.device_name ? *id.device_name : *id.cpu_model);
            break;
        case Backend::cpu:
            break;
    }
    return tag.empty() ? cpu_tag(id.cpu_model) : tag;
}

}  // namespace

std::string make_host_tag(const HostIdentity& id) {
    // Device and CPU names come from tools and can be of any length; the tag must obey the same
    // rule every reader applies (perfgate/core/host_tag_rule.hpp), so it is capped here, not refused
    // later when a measured row is written.
    return cap_host_tag(derived_host_tag(id));
}

std::string make_hardware_string(const HostIdentity& id) {
    std::string s;
    switch (id.backend) {
        case Backend::rocm:
            s = fmt::format("{}_{}", id.device_name.value_or("AMD GPU"), id.device_arch.value_or("gfxunknown"));
            if (id.rocm_version) s += "_ROCm" + *id.rocm_version;
            s += rounded_gb(id.device_memory_bytes ? id.device_memory_bytes : id.host_memory_bytes);
            break;
        case Backend::cuda: {
            const auto name = id.device_name.value_or("GPU");
            s = name.rfind("NVIDIA", 0) == 0 ? name : "NVIDIA_" + name;
            if (id.cuda_version) s += "_CUDA" + *id.cuda_version;
            s += rounded_gb(id.host_memory_bytes);
            break;
        }
        case Backend::metal:
            s = id.cpu_model.value_or(id.device_name.value_or("Apple")) + rounded_gb(id.host_memory_bytes);
            break;
        case Backend::vulkan:
            s = id.device_name.value_or("GPU") + "_Vulkan" +
                rounded_gb(id.device_memory_bytes ? id.device_memory_bytes : id.host_memory_bytes);
            break;
        case Backend::cpu:
            s = id.cpu_model.value_or("CPU") + rounded_gb(id.host_memory_bytes);
            break;
    }
    return underscores(s);
}

bool is_valid_host_tag(const std::string& tag) { return perfgate::is_valid_host_tag(tag); }

}  // namespace perfgate::probes
