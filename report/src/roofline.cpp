#include "roofline.hpp"

#include <fstream>
#include <sstream>

#include <boost/filesystem.hpp>

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
    // The gate's parser: one reader and one set of rules for the file.
    auto file = gates::parse_threshold_file(text.str(), path);
    if (!file) return file.error();
    return file->memory_bandwidth;
}

std::optional<double> decode_efficiency(std::optional<std::uint64_t> model_bytes, double decode_tok_s,
                                        const std::optional<Bandwidth>& bandwidth) {
    if (!model_bytes || !bandwidth || bandwidth->bytes_per_s <= 0) return std::nullopt;
    return static_cast<double>(*model_bytes) * decode_tok_s / bandwidth->bytes_per_s;
}

}  // namespace perfgate::report
