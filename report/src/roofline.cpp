#include "roofline.hpp"

namespace perfgate::report {

std::optional<double> decode_efficiency(std::optional<std::uint64_t> model_bytes, double decode_tok_s,
                                        const std::optional<Bandwidth>& bandwidth) {
    if (!model_bytes || !bandwidth || bandwidth->bytes_per_s <= 0) return std::nullopt;
    return static_cast<double>(*model_bytes) * decode_tok_s / bandwidth->bytes_per_s;
}

}  // namespace perfgate::report
