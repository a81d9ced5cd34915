// Random weights in ggml's Q4_0 / Q8_0 / F16 / F32 layouts.
#include <algorithm>
#include <cstring>

#include "random_weights.hpp"

namespace perfgate::forge::detail {
namespace {

// Q4_0 and Q8_0 blocks: an f16 scale followed by 32 quantized values (16 bytes of nibble pairs,
// or 32 int8). Scales of 1/256 (values -8..7) and 1/4096 (values -128..127) keep weights within
// about [-0.03, 0.03], the magnitude of trained weights, so activations stay tame through many
// layers. Both are exact powers of two, hence exact in f16.
constexpr float kQ4Scale = 1.0f / 256.0f;
constexpr float kQ8Scale = 1.0f / 4096.0f;
constexpr float kFloatScale = 0.02f;

float uniform_pm1(std::uint64_t bits) {  // uniform in [-1, 1) from 24 random bits
    return static_cast<float>(bits & 0xffffff) / 8388608.0f - 1.0f;
}

void fill_blocks(Random& rng, std::vector<std::uint8_t>& out, std::size_t block_bytes, float block_scale) {
    const std::uint16_t scale = to_f16_bits(block_scale);
    for (std::size_t at = 0; at + block_bytes <= out.size(); at += block_bytes) {
        std::memcpy(&out[at], &scale, 2);
        for (std::size_t k = 2; k < block_bytes; k += 8) {
            const std::uint64_t r = rng.next();
            std::memcpy(&out[at + k], &r, std::min<std::size_t>(8, block_bytes - k));
        }
    }
}

}  // namespace

std::uint16_t to_f16_bits(float value) {
    std::uint32_t f;
    std::memcpy(&f, &value, 4);
    const std::uint32_t sign = (f >> 16) & 0x8000;
    const std::int32_t exponent = static_cast<std::int32_t>((f >> 23) & 0xff) - 127 + 15;
    const std::uint32_t mantissa = f & 0x7fffff;
    if (exponent <= 0) return static_cast<std::uint16_t>(sign);             // too small: signed zero
    if (exponent >= 31) return static_cast<std::uint16_t>(sign | 0x7bff);   // clamp to the largest finite
    return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(exponent) << 10) | (mantissa >> 13));
}

void fill_random(WeightType type, bool is_norm, Random& rng, std::vector<std::uint8_t>& out) {
    switch (type) {
        case WeightType::Q4_0: fill_blocks(rng, out, 18, kQ4Scale); return;
        case WeightType::Q8_0: fill_blocks(rng, out, 34, kQ8Scale); return;
        case WeightType::F16:
            for (std::size_t at = 0; at + 2 <= out.size(); at += 2) {
                const std::uint16_t h = to_f16_bits(kFloatScale * uniform_pm1(rng.next()));
                std::memcpy(&out[at], &h, 2);
            }
            return;
        case WeightType::F32:
            for (std::size_t at = 0; at + 4 <= out.size(); at += 4) {
                const float v = is_norm ? 1.0f : kFloatScale * uniform_pm1(rng.next());
                std::memcpy(&out[at], &v, 4);
            }
            return;
    }
}

}  // namespace perfgate::forge::detail
