#include "perfgate/gates/host_thresholds.hpp"

#include <optional>

#include "perfgate/core/thresholds_file.hpp"

namespace perfgate::gates {
namespace {

Expected<std::optional<ThresholdFile>> read_if_present(const std::filesystem::path& dir, const std::string& stem) {
    auto doc = read_thresholds_json(dir.string(), stem);
    if (!doc) return doc.error();
    if (!*doc) return std::optional<ThresholdFile>{};
    auto parsed = threshold_file_from(**doc);
    if (!parsed) return parsed.error();
    return std::optional<ThresholdFile>(std::move(*parsed));
}

}  // namespace

Expected<HostThresholds> load_host_thresholds(const std::filesystem::path& dir, const std::string& host_tag) {
    HostThresholds out;
    auto defaults = read_if_present(dir, "default");
    if (!defaults) return defaults.error();
    if (*defaults) {
        out.set.add_layer(std::move(**defaults));
        out.notes.push_back("thresholds from " + (dir / "default.json").string());
    } else {
        out.set.add_layer(builtin_default_thresholds());
        out.notes.push_back("no " + (dir / "default.json").string() + "; built-in defaults (decode 5%, prefill 10%)");
    }
    if (host_tag.empty()) return out;
    auto host = read_if_present(dir, host_tag);
    if (!host) return host.error();
    if (*host) {
        out.memory_bandwidth = (*host)->memory_bandwidth;
        out.set.add_layer(std::move(**host));
        out.notes.push_back("host " + host_tag + ": " + (dir / (host_tag + ".json")).string() + " over the defaults");
    }
    return out;
}

}  // namespace perfgate::gates
