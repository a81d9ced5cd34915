#include "perfgate/probes/machine_identity.hpp"

#include <algorithm>
#include <array>
#include <regex>

#include <boost/uuid/name_generator_sha1.hpp>
#include <boost/uuid/string_generator.hpp>
#include <boost/uuid/uuid_io.hpp>
#include <fmt/format.h>

#include "perfgate/probes/cpu_cores.hpp"
#include "perfgate/probes/sysroot.hpp"
#include "text.hpp"

namespace perfgate::probes {

namespace {

// perfgate's namespace for name-based UUIDs: the key of both digests. Never change it: every
// recorded machine_id and fingerprint would change with it, and each machine would read as new.
constexpr const char* kPerfgateNamespace = "a32c680f-e40a-442a-aacc-0ee51e580611";

// The cpuinfo keys that name the silicon and what it offers (x86, then ARM). Per-core and
// changing values (MHz, bogomips, core id) are left out.
constexpr std::array<std::string_view, 12> kCpuIdentityKeys = {
    "vendor_id", "cpu family", "model", "stepping", "microcode", "flags",
    "CPU implementer", "CPU architecture", "CPU variant", "CPU part", "CPU revision", "Features"};

std::optional<std::string> non_empty(const std::optional<std::string>& text) {
    if (!text) return std::nullopt;
    auto t = trim(*text);
    if (t.empty()) return std::nullopt;
    return t;
}

std::string gib_text(const std::optional<std::uint64_t>& bytes) {
    // Whole GiB: MemTotal moves by a few MiB with firmware reservations, which is no other machine.
    if (!bytes) return "";
    constexpr std::uint64_t gib = 1ULL << 30;
    return fmt::format("{}", (*bytes + gib / 2) / gib);
}

void read_gpu_uuids(const Sysroot& root, std::vector<std::string>& out) {
    for (const auto& gpu : root.list("proc/driver/nvidia/gpus", "")) {
        const auto info = root.read("proc/driver/nvidia/gpus/" + gpu + "/information");
        if (!info) continue;
        for (const auto& line : split_lines(*info)) {
            auto kv = split_key_value(line);
            if (kv && kv->first == "GPU UUID" && !kv->second.empty()) out.push_back(to_lower(kv->second));
        }
    }
    static const std::regex card_re(R"(card\d+)");
    for (const auto& card : root.list("sys/class/drm", "card")) {
        if (!std::regex_match(card, card_re)) continue;
        if (auto id = non_empty(root.read("sys/class/drm/" + card + "/device/unique_id"))) out.push_back(to_lower(*id));
    }
    // Sorted: the order the folders list in says nothing about the machine.
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_cpu_identity(std::string_view cpuinfo) {
    std::vector<std::pair<std::string, std::string>> identity;
    bool in_block = false;
    for (const auto& line : split_lines(cpuinfo)) {
        const auto kv = split_key_value(line);
        if (!kv) {
            if (in_block && trim(line).empty()) break;  // the end of the first processor's block
            continue;
        }
        in_block = true;
        if (std::find(kCpuIdentityKeys.begin(), kCpuIdentityKeys.end(), kv->first) == kCpuIdentityKeys.end()) continue;
        const bool seen = std::any_of(identity.begin(), identity.end(), [&](const auto& e) { return e.first == kv->first; });
        if (!seen) identity.push_back(*kv);
    }
    return identity;
}

MachineObservations read_machine_observations(const Sysroot& root) {
    MachineObservations m;
    m.machine_id_file = non_empty(root.read("etc/machine-id"));
    if (auto uuid = non_empty(root.read("sys/class/dmi/id/product_uuid"))) m.product_uuid = to_lower(*uuid);
    read_gpu_uuids(root, m.gpu_uuids);
    if (auto cpuinfo = root.read("proc/cpuinfo")) {
        m.cpu_identity = parse_cpu_identity(*cpuinfo);
        m.physical_cores = parse_physical_cores(*cpuinfo);
        int processors = 0;
        for (const auto& line : split_lines(*cpuinfo))
            if (auto kv = split_key_value(line); kv && kv->first == "processor") ++processors;
        if (processors > 0) m.logical_cpus = processors;
    }
    return m;
}

std::string keyed_digest(std::string_view purpose, std::string_view text) {
    static const boost::uuids::uuid ns = boost::uuids::string_generator()(kPerfgateNamespace);
    boost::uuids::name_generator_sha1 generate(ns);
    std::string name(purpose);
    name += '\n';
    name += text;
    std::string hex;
    for (char c : boost::uuids::to_string(generate(name)))
        if (c != '-') hex.push_back(c);
    // Hex digit 12 is the UUID version and digit 16 carries the variant bits: fixed, so skipped.
    return hex.substr(0, 12) + hex.substr(13, 3) + hex.substr(17, 1);
}

std::optional<std::string> machine_id(const MachineObservations& m, std::vector<std::string>* sources) {
    std::string text;
    std::vector<std::string> used;
    if (m.machine_id_file) { text += "machine-id=" + *m.machine_id_file + "\n"; used.push_back("etc/machine-id"); }
    if (m.product_uuid) { text += "product_uuid=" + *m.product_uuid + "\n"; used.push_back("dmi product_uuid"); }
    for (const auto& g : m.gpu_uuids) text += "gpu=" + g + "\n";
    if (!m.gpu_uuids.empty()) used.push_back(fmt::format("{} GPU UUID(s)", m.gpu_uuids.size()));
    if (sources) *sources = used;
    if (text.empty()) return std::nullopt;
    return keyed_digest("machine_id", text);
}

std::vector<std::pair<std::string, std::string>> fingerprint_fields(const SpeedFacts& f, const MachineObservations& m) {
    const auto opt = [](const std::optional<std::string>& v) { return v.value_or(""); };
    const auto num = [](const std::optional<int>& v) { return v ? std::to_string(*v) : std::string(); };
    std::vector<std::pair<std::string, std::string>> fields{{"cpu_model", opt(f.cpu_model)}};
    for (const auto key : kCpuIdentityKeys) {
        std::string value;
        for (const auto& [k, v] : m.cpu_identity)
            if (k == key) value = v;
        fields.emplace_back(std::string(key), value);
    }
    fields.emplace_back("logical_cpus", num(m.logical_cpus));
    fields.emplace_back("physical_cores", num(m.physical_cores));
    fields.emplace_back("host_memory_gib", gib_text(f.host_memory_bytes));
    fields.emplace_back("kernel", opt(f.kernel));
    fields.emplace_back("backend", f.backend);
    fields.emplace_back("device", opt(f.device_name));
    fields.emplace_back("device_arch", opt(f.device_arch));
    fields.emplace_back("device_memory_gib", gib_text(f.device_memory_bytes));
    fields.emplace_back("driver", opt(f.driver_version));
    fields.emplace_back("cuda", opt(f.cuda_version));
    fields.emplace_back("rocm", opt(f.rocm_version));
    std::string gpus;
    for (const auto& g : m.gpu_uuids) gpus += (gpus.empty() ? "" : ";") + g;
    fields.emplace_back("gpu_uuids", gpus);
    return fields;
}

std::string machine_fingerprint(const SpeedFacts& facts, const MachineObservations& m) {
    std::string text;
    for (const auto& [name, value] : fingerprint_fields(facts, m)) text += name + "=" + value + "\n";
    return keyed_digest("machine_fingerprint", text);
}

}  // namespace perfgate::probes
