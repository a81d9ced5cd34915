#include "perfgate/core/thresholds_file.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "perfgate/core/file_read.hpp"
#include "perfgate/core/host_tag_rule.hpp"

namespace perfgate {

Expected<std::string> thresholds_file_name(std::string_view stem, std::string_view source) {
    if (auto bad = host_tag_problem(stem, source)) return make_error(*bad);
    return std::string(stem) + ".json";
}

Expected<std::optional<JsonDocument>> read_thresholds_json(const std::string& dir, std::string_view stem) {
    auto name = thresholds_file_name(stem, "the thresholds file name");
    if (!name) return name.error();
    const std::string path = (std::filesystem::path(dir) / *name).string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::optional<JsonDocument>{};
    auto text = read_regular_file(path);
    if (!text) return text.error();
    auto doc = parse_json_document(*text, path);
    if (!doc) return doc.error();
    return std::optional<JsonDocument>(std::move(*doc));
}

Expected<std::optional<double>> memory_headroom_of(const JsonDocument& thresholds) {
    if (!thresholds.value.is_object()) return thresholds.error("", "the thresholds file must be a JSON object");
    const auto it = thresholds.value.find("memory_headroom");
    if (it == thresholds.value.end()) return std::optional<double>{};
    if (!it->is_number() || !(it->get<double>() > 0.0 && it->get<double>() <= 1.0))
        return thresholds.error("/memory_headroom", fmt::format("\"memory_headroom\" = {} is outside (0, 1]", it->dump()));
    return std::optional<double>{it->get<double>()};
}

}  // namespace perfgate
