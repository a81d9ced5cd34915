#include "perfgate/report/roofline.hpp"

#include <fstream>
#include <sstream>

#include <boost/filesystem.hpp>
#include <nlohmann/json.hpp>

namespace perfgate::report {

Expected<std::optional<Bandwidth>> read_memory_bandwidth(const std::string& thresholds_dir, const std::string& host) {
    if (host.empty()) return std::optional<Bandwidth>{};
    const auto path = (boost::filesystem::path(thresholds_dir) / (host + ".json")).string();
    boost::system::error_code ec;
    if (!boost::filesystem::is_regular_file(path, ec)) return std::optional<Bandwidth>{};
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) return make_error(path + ": cannot be read");
    // Only this one key is read here; the gate owns the rest of the file.
    auto json = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) return make_error(path + ": not valid JSON");
    if (!json.is_object() || !json.contains("memory_bandwidth_bytes_per_s")) return std::optional<Bandwidth>{};
    const auto& value = json["memory_bandwidth_bytes_per_s"];
    if (!value.is_number() || value.get<double>() <= 0)
        return make_error(path + ": \"memory_bandwidth_bytes_per_s\" must be a positive number of bytes per second");
    return std::optional<Bandwidth>{Bandwidth{value.get<double>(), path}};
}

std::optional<double> decode_efficiency(std::optional<std::uint64_t> model_bytes, double decode_tok_s,
                                        const std::optional<Bandwidth>& bandwidth) {
    if (!model_bytes || !bandwidth || bandwidth->bytes_per_s <= 0) return std::nullopt;
    return static_cast<double>(*model_bytes) * decode_tok_s / bandwidth->bytes_per_s;
}

}  // namespace perfgate::report
