#pragma once
// A model spec (perf/models/*.json) describes the shape of a real LLM checkpoint: architecture,
// hyper-parameters, tokenizer and weight type. The forge turns it into a GGUF file with random
// weights; the runner uses the same spec to know a model's weight bytes before anything is written.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::forge {

// The weight types the forge can write for 2-D weight matrices. Norm vectors are always F32.
enum class WeightType { F32, F16, Q8_0, Q4_0 };

std::string_view weight_type_name(WeightType type);                  // "Q4_0", ...
std::optional<WeightType> weight_type_from_name(std::string_view name);

// The architectures whose tensor layout the forge knows (names as llama.cpp spells them).
enum class Architecture { Llama, Qwen3, Qwen3Moe };

std::string_view architecture_name(Architecture arch);               // "llama", "qwen3", "qwen3moe"

struct ModelSpec {
    std::string name;              // file-name friendly, e.g. "qwen3-0.6b"
    std::string description;       // what real checkpoint this has the shape of
    Architecture architecture = Architecture::Llama;
    std::string vocab_file;        // a vocabulary GGUF in llama.cpp's models/, e.g. "ggml-vocab-qwen2.gguf"
    std::uint64_t vocab_size = 0;  // rows of the embedding; the tokenizer is padded up to it
    std::uint64_t context_length = 0;
    std::uint64_t embedding_length = 0;
    std::uint64_t block_count = 0;
    std::uint64_t feed_forward_length = 0;   // dense FFN width (MoE: may be 0)
    std::uint64_t head_count = 0;
    std::uint64_t head_count_kv = 0;
    std::uint64_t head_dim = 0;              // key/value length per head
    double rope_freq_base = 10000.0;
    double rms_norm_eps = 1e-5;
    bool tied_embeddings = false;            // no separate output.weight
    std::uint64_t expert_count = 0;          // MoE only
    std::uint64_t expert_used_count = 0;
    std::uint64_t expert_feed_forward_length = 0;
    WeightType weight_type = WeightType::Q4_0;
    std::uint64_t seed = 1;                  // random weights are reproducible per spec
};

// One tensor the forged file holds: name, dimensions (ggml order: innermost first) and type.
struct TensorPlan {
    std::string name;
    std::vector<std::uint64_t> dims;
    WeightType type = WeightType::F32;

    std::uint64_t elements() const;
    std::uint64_t bytes() const;
};

// Limits a spec must keep to, checked by parse_model_spec before anything is derived from its
// sizes, so a crafted spec cannot make perfgate allocate or compute without bound (hardening
// issue, item 6: a block_count of 10^7 once made the tensor list alone take 13 GB).
// Every count is written to the GGUF file as a uint32.
inline constexpr std::uint64_t kMaxSpecCount = 0xFFFFFFFFULL;
// Real checkpoints have at most a few hundred blocks (Llama 3.1 405B: 126); the tensor list holds
// at most 12 tensors per block, so at most 12,291 entries.
inline constexpr std::uint64_t kMaxBlockCount = 1024;
// Real tokenizers have at most a few hundred thousand tokens; the forge pads the tokenizer's
// arrays up to vocab_size entries.
inline constexpr std::uint64_t kMaxVocabSize = 1ULL << 22;  // 4,194,304
// The weights a spec may describe: 4 TiB, above any checkpoint perfgate can run (1T parameters
// in F16 are 1.8 TiB).
inline constexpr std::uint64_t kMaxSpecWeightBytes = 1ULL << 42;

// Parses a spec; errors name `origin` and the line ("perf/models/x.json:7: ...").
Expected<ModelSpec> parse_model_spec(std::string_view json_text, const std::string& origin);
Expected<ModelSpec> load_model_spec(const std::filesystem::path& path);

// Every tensor, in file order, exactly as llama.cpp's loader expects them for the architecture.
std::vector<TensorPlan> tensor_plan(const ModelSpec& spec);

// Number of weights in the file (what llama.cpp reports as model_n_params).
std::uint64_t parameter_count(const ModelSpec& spec);

// Bytes of tensor data in the forged file: what the model needs in memory for its weights.
// The runner adds KV cache and runtime overhead for the fit check.
std::uint64_t estimated_weight_bytes(const ModelSpec& spec);

// Bytes of weights one decoded token reads: every tensor once, except the experts of a mixture
// (only expert_used_count of expert_count) and the token embedding (one row; all of it when the
// output shares it). Memory bandwidth x this is the roofline of decode; with the whole file's
// bytes a mixture of experts read 157% of the bandwidth on the CPU page.
std::uint64_t bytes_read_per_token(const ModelSpec& spec);

// Bytes of one row-major tensor of `elements` values of `type` (elements must fill whole blocks).
std::uint64_t tensor_bytes(WeightType type, std::uint64_t elements);

// Stable hash (16 hex digits) of everything that changes the forged file's bytes.
std::string spec_hash(const ModelSpec& spec);

}  // namespace perfgate::forge
