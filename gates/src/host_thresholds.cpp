#include "perfgate/gates/host_thresholds.hpp"

#include <fstream>
#include <optional>
#include <sstream>

namespace perfgate::gates {
namespace {

Expected<std::optional<ThresholdFile>> read_if_present(const std::filesystem::path& file) {
    if (!std::filesystem::exists(file)) return std::optional<ThresholdFile>{};
    std::ifstream in(file, std::ios::binary);
    if (!in) return make_error(file.string() + ": cannot read the thresholds file");
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = parse_threshold_file(text.str(), file.string());
    if (!parsed) return parsed.error();
    return std::optional<ThresholdFile>(std::move(*parsed));
}

}  // namespace

Expected<HostThresholds> load_host_thresholds(const std::filesystem::path& dir, const std::string& host_tag) {
    HostThresholds out;
    auto defaults = read_if_present(dir / "default.json");
    if (!defaults) return defaults.error();
    if (*defaults) {
        out.set.add_layer(std::move(**defaults));
        out.notes.push_back("thresholds from " + (dir / "default.json").string());
    } else {
        out.set.add_layer(builtin_default_thresholds());
        out.notes.push_back("no " + (dir / "default.json").string() + "; built-in defaults (decode 5%, prefill 10%)");
    }
    if (host_tag.empty()) return out;
    auto host = read_if_present(dir / (host_tag + ".json"));
    if (!host) return host.error();
    if (*host) {
        out.set.add_layer(std::move(**host));
        out.notes.push_back("host " + host_tag + ": " + (dir / (host_tag + ".json")).string() + " over the defaults");
    }
    return out;
}

}  // namespace perfgate::gates
