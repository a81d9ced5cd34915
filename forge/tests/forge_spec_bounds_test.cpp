// Hardening issue, item 6: a model spec's sizes are checked before anything is derived from them.
// A block_count of 10^7 once made parse_model_spec build a 13 GB tensor list before any check;
// the memory guard (estimate_memory) reads the same specs.
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <limits>

#include "forge_test_support.hpp"
#include "perfgate/forge/model_spec.hpp"

using namespace perfgate::forge;

namespace {

// forge_test::kValid with `key` set to `value` (replaced where it is, else added last); the line
// it sits on is what errors must name.
std::string spec_with(const std::string& key, const std::string& value) {
    std::string text = forge_test::kValid.substr(0, forge_test::kValid.rfind('}'));
    while (text.back() == '\n') text.pop_back();
    const auto at = text.find("\"" + key + "\"");
    if (at != std::string::npos) {
        const auto end = text.find_first_of(",\n", text.find(':', at));
        text.replace(at, end - at, "\"" + key + "\": " + value);
    } else {
        text += ",\n  \"" + key + "\": " + value;
    }
    return text + "\n}";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("a spec with ten million blocks is refused at its line, without building the tensor list", "[forge][spec][bounds]") {
    const auto t0 = std::chrono::steady_clock::now();
    auto spec = parse_model_spec(spec_with("block_count", "10000000"), "x.json");
    REQUIRE_FALSE(spec);
    CHECK(spec.error().message == "x.json:8: \"block_count\" is 10000000, above the limit of 1024 blocks");
    CHECK(seconds_since(t0) < 1.0);  // before the fix: minutes and 13 GB

    CHECK(parse_model_spec(spec_with("block_count", "1024"), "x.json"));
}

TEST_CASE("spec counts beyond uint32 and a vocabulary beyond the limit are refused", "[forge][spec][bounds]") {
    auto e = parse_model_spec(spec_with("context_length", "4294967296"), "x.json");
    REQUIRE_FALSE(e);
    CHECK(e.error().message == "x.json:6: \"context_length\" is 4294967296, above the 4294967295 a GGUF file can hold");
    e = parse_model_spec(spec_with("vocab_size", "4194305"), "x.json");
    REQUIRE_FALSE(e);
    CHECK(e.error().message == "x.json:5: \"vocab_size\" is 4194305, above the limit of 4194304 tokens");
    // head_count * head_dim used to be compared after wrapping in 64 bits.
    e = parse_model_spec(spec_with("head_dim", "9223372036854775808"), "x.json");
    REQUIRE_FALSE(e);
    CHECK_THAT(e.error().message, Catch::StartsWith("x.json:12: \"head_dim\" is 9223372036854775808"));
}

TEST_CASE("a spec whose weights exceed 4 TiB is refused, with the size computed without wrapping", "[forge][spec][bounds]") {
    // 2^32 - 1 experts of 128 x (2^32 - 32) weights per block: beyond 2^64 bytes, so a wrapped
    // product could have passed as small.
    const std::string moe = R"({
  "name": "t",
  "architecture": "qwen3moe",
  "vocab_file": "ggml-vocab-llama-spm.gguf",
  "vocab_size": 32000,
  "context_length": 512,
  "embedding_length": 128,
  "block_count": 2,
  "head_count": 4,
  "expert_count": 4294967295,
  "expert_used_count": 8,
  "expert_feed_forward_length": 4294967264,
  "weight_type": "Q4_0"
})";
    auto e = parse_model_spec(moe, "x.json");
    REQUIRE_FALSE(e);
    CHECK_THAT(e.error().message, Catch::StartsWith("x.json:8: the weights would take more than 2^64 bytes, above the limit of 4398046511104"));

    // Above the limit without saturating: the byte count is reported exactly.
    ModelSpec big;
    big.architecture = Architecture::Llama;
    big.vocab_size = kMaxVocabSize;
    big.embedding_length = 1 << 20;
    big.block_count = 1;
    big.feed_forward_length = 1 << 20;
    big.head_count = 1 << 10;
    big.head_count_kv = 1 << 10;
    big.head_dim = 1 << 10;
    big.weight_type = WeightType::F16;
    CHECK(estimated_weight_bytes(big) > kMaxSpecWeightBytes);
    CHECK(estimated_weight_bytes(big) < std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("sizes of an unchecked spec saturate instead of wrapping, and cost no memory per block", "[forge][spec][bounds]") {
    auto spec = parse_model_spec(spec_with("block_count", "2"), "x.json");
    REQUIRE(spec);
    const auto two_blocks = estimated_weight_bytes(*spec);
    const auto plan = tensor_plan(*spec);
    std::uint64_t listed = 0;
    for (const auto& t : plan) listed += t.bytes();
    CHECK(two_blocks == listed);  // one block times block_count equals the full list

    ModelSpec huge = *spec;
    huge.block_count = std::numeric_limits<std::uint64_t>::max();
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(estimated_weight_bytes(huge) == std::numeric_limits<std::uint64_t>::max());
    CHECK(parameter_count(huge) == std::numeric_limits<std::uint64_t>::max());
    CHECK(seconds_since(t0) < 1.0);
}
