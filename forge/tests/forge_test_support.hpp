#pragma once
// Helpers shared by the forge tests: a scratch folder and a small stand-in vocabulary GGUF.
#include <filesystem>

#include "perfgate/test/files.hpp"
#include <random>
#include <string>
#include <unistd.h>

#include "gguf.hpp"
#include "perfgate/forge/model_spec.hpp"

namespace forge_test {

using ScratchDir = perfgate::test::TempDir;

// A small valid llama spec: the starting point of tests that change one key.
inline const std::string kValid = R"({
  "name": "t",
  "architecture": "llama",
  "vocab_file": "ggml-vocab-llama-spm.gguf",
  "vocab_size": 32000,
  "context_length": 512,
  "embedding_length": 128,
  "block_count": 2,
  "feed_forward_length": 256,
  "head_count": 4,
  "weight_type": "Q4_0"
})";

inline perfgate::forge::ModelSpec load_repo_spec(const std::string& name) {
    auto spec = perfgate::forge::load_model_spec(std::filesystem::path(PERFGATE_SOURCE_DIR) / "perf/models" / (name + ".json"));
    if (!spec) throw std::runtime_error(spec.error().message);
    return *spec;
}

// Writes <dir>/<file> as a tokenizer-only GGUF of `n_tokens` tokens, like llama.cpp's vocab files.
inline void write_stand_in_vocab(const std::filesystem::path& dir, const std::string& file, std::size_t n_tokens) {
    using namespace perfgate::forge::gguf;
    std::vector<std::string> tokens;
    Value scores, types;
    scores.type = types.type = ValueType::Array;
    scores.element_type = ValueType::Float32;
    types.element_type = ValueType::Int32;
    for (std::size_t k = 0; k < n_tokens; ++k) {
        tokens.push_back("tok" + std::to_string(k));
        scores.items.push_back(Value::float32(-static_cast<float>(k)));
        Value t;
        t.type = ValueType::Int32;
        t.i = 1;
        types.items.push_back(t);
    }
    std::vector<KeyValue> kv = {
        {"general.architecture", Value::string("llama")},
        {"tokenizer.ggml.model", Value::string("llama")},
        {"tokenizer.ggml.tokens", Value::string_array(tokens)},
        {"tokenizer.ggml.scores", scores},
        {"tokenizer.ggml.token_type", types},
        {"tokenizer.ggml.bos_token_id", Value::uint32(1)},
    };
    auto status = write_file(dir / file, kv, {}, [](std::size_t, std::vector<std::uint8_t>&) {});
    if (!status) throw std::runtime_error(status.error().message);
}

}  // namespace forge_test
