#pragma once
// Random tensor contents in ggml's block layouts. Values are kept small and finite (scales well
// inside f16 range, norms at 1) so that a forward pass never produces NaN or inf; llama.cpp's
// speed does not depend on them.
#include <cstdint>
#include <vector>

#include "perfgate/forge/model_spec.hpp"

namespace perfgate::forge::detail {

// splitmix64: a tiny, fast, well-mixed generator; reproducible for a given seed.
class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

private:
    std::uint64_t state_;
};

// IEEE half-precision bits of a float in the normal f16 range (the forge's scales are).
std::uint16_t to_f16_bits(float value);

// Fills `out` (already sized to the tensor's bytes) for a tensor of `type`.
// Norm weights (F32 vectors) are set to 1; every other tensor gets random values.
void fill_random(WeightType type, bool is_norm, Random& rng, std::vector<std::uint8_t>& out);

}  // namespace perfgate::forge::detail
