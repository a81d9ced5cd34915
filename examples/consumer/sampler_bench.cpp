// The example's runtime: greedy sampling of the next token from a vocabulary's logits (softmax
// normalisation and argmax), the last step of every decode. One benchmark run samples one token,
// so perfgate's decode_tok_s for these pairs is the sampler's tokens per second.
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

std::vector<float> synthetic_logits(std::size_t vocab) {
    std::vector<float> logits(vocab);
    std::uint32_t state = 12345u;  // fixed LCG seed: every run samples the same distribution
    for (auto& x : logits) {
        state = state * 1664525u + 1013904223u;
        x = static_cast<float>(state >> 8) / static_cast<float>(1u << 24) * 20.0f - 10.0f;
    }
    return logits;
}

// Returns the chosen token and writes the probability it was given.
std::size_t sample_greedy(const std::vector<float>& logits, std::vector<float>& probs, float& p_best) {
    const float max_logit = *std::max_element(logits.begin(), logits.end());
    float sum = 0.0f;
    for (std::size_t i = 0; i < logits.size(); ++i) {
        probs[i] = std::exp(logits[i] - max_logit);
        sum += probs[i];
    }
    const auto best = static_cast<std::size_t>(std::max_element(probs.begin(), probs.end()) - probs.begin());
    p_best = probs[best] / sum;
    return best;
}

}  // namespace

TEST_CASE("greedy sampler picks the largest logit") {
    auto logits = synthetic_logits(1000);
    logits[417] = 50.0f;
    std::vector<float> probs(logits.size());
    float p = 0.0f;
    REQUIRE(sample_greedy(logits, probs, p) == 417);
    REQUIRE(p > 0.99f);
}

TEST_CASE("sampler throughput", "[!benchmark]") {
    for (const std::size_t vocab : {std::size_t{32000}, std::size_t{128256}}) {
        const auto logits = synthetic_logits(vocab);
        std::vector<float> probs(vocab);
        float p = 0.0f;
        // The names are what perf/sampler.json's "benchmark" keys select.
        BENCHMARK("greedy sample, vocab " + std::to_string(vocab)) { return sample_greedy(logits, probs, p); };
    }
}
