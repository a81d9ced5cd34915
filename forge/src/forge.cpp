// Forging: size guard, tokenizer copy, hyper-parameter keys, random tensor data, cache by hash.
#include <chrono>
#include <cstdio>

#include "perfgate/forge/forge.hpp"
#include "gguf.hpp"
#include "random_weights.hpp"

namespace perfgate::forge {
namespace {

using gguf::KeyValue;
using gguf::Value;
using gguf::ValueType;

std::string gib(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return text;
}

gguf::TensorType gguf_type(WeightType t) {
    switch (t) {
        case WeightType::F32: return gguf::TensorType::F32;
        case WeightType::F16: return gguf::TensorType::F16;
        case WeightType::Q8_0: return gguf::TensorType::Q8_0;
        case WeightType::Q4_0: return gguf::TensorType::Q4_0;
    }
    return gguf::TensorType::F32;
}

// llama.cpp's llama_ftype for a file whose matrices are all of one type ("MOSTLY_...").
std::uint32_t llama_file_type(WeightType t) {
    switch (t) {
        case WeightType::F32: return 0;
        case WeightType::F16: return 1;
        case WeightType::Q4_0: return 2;
        case WeightType::Q8_0: return 7;
    }
    return 0;
}

// Token type id GGUF uses for tokens that are never produced by the tokenizer.
constexpr std::int64_t kUnusedTokenType = 5;

// The tokenizer.* keys of the vocabulary file, padded with unused tokens up to the spec's
// vocabulary size (checkpoints often round their embedding rows up beyond the tokenizer).
Expected<std::vector<KeyValue>> tokenizer_metadata(const ModelSpec& spec, const std::filesystem::path& vocab_path) {
    auto header = gguf::read_header(vocab_path);
    if (!header) return header.error();
    std::vector<KeyValue> keys;
    for (auto& kv : header->metadata)
        if (kv.key.starts_with("tokenizer.")) keys.push_back(std::move(kv));

    std::size_t n_tokens = 0;
    for (const auto& kv : keys)
        if (kv.key == "tokenizer.ggml.tokens") n_tokens = kv.value.items.size();
    if (n_tokens == 0) return make_error(vocab_path.string() + ": has no tokenizer.ggml.tokens");
    if (n_tokens > spec.vocab_size)
        return make_error(vocab_path.string() + ": has " + std::to_string(n_tokens) + " tokens, more than the spec's vocab_size " +
                          std::to_string(spec.vocab_size));

    for (auto& kv : keys) {
        if (kv.value.type != ValueType::Array || kv.value.items.size() != n_tokens) continue;  // per-token arrays only
        for (std::size_t k = n_tokens; k < spec.vocab_size; ++k) {
            Value pad;
            pad.type = kv.value.element_type;
            if (kv.key == "tokenizer.ggml.tokens") pad.s = "[PAD" + std::to_string(k) + "]";
            else if (kv.key == "tokenizer.ggml.token_type") pad.i = kUnusedTokenType;
            kv.value.items.push_back(std::move(pad));
        }
    }
    return keys;
}

std::vector<KeyValue> model_metadata(const ModelSpec& s) {
    const std::string a(architecture_name(s.architecture));
    auto u32 = [](std::uint64_t v) { return Value::uint32(static_cast<std::uint32_t>(v)); };
    std::vector<KeyValue> kv = {
        {"general.architecture", Value::string(a)},
        {"general.name", Value::string(s.name)},
        {"general.file_type", u32(llama_file_type(s.weight_type))},
        {"general.quantization_version", u32(2)},
        {a + ".vocab_size", u32(s.vocab_size)},
        {a + ".context_length", u32(s.context_length)},
        {a + ".embedding_length", u32(s.embedding_length)},
        {a + ".block_count", u32(s.block_count)},
        {a + ".attention.head_count", u32(s.head_count)},
        {a + ".attention.head_count_kv", u32(s.head_count_kv)},
        {a + ".attention.key_length", u32(s.head_dim)},
        {a + ".attention.value_length", u32(s.head_dim)},
        {a + ".rope.dimension_count", u32(s.head_dim)},
        {a + ".rope.freq_base", Value::float32(static_cast<float>(s.rope_freq_base))},
        {a + ".attention.layer_norm_rms_epsilon", Value::float32(static_cast<float>(s.rms_norm_eps))},
    };
    if (s.feed_forward_length) kv.push_back({a + ".feed_forward_length", u32(s.feed_forward_length)});
    if (s.architecture == Architecture::Qwen3Moe) {
        kv.push_back({a + ".expert_count", u32(s.expert_count)});
        kv.push_back({a + ".expert_used_count", u32(s.expert_used_count)});
        kv.push_back({a + ".expert_feed_forward_length", u32(s.expert_feed_forward_length)});
    }
    kv.push_back({kSyntheticKey, Value::boolean(true)});
    kv.push_back({kSpecHashKey, Value::string(spec_hash(s))});
    return kv;
}

bool is_norm(const std::string& name) { return name.ends_with("_norm.weight"); }

}  // namespace

std::filesystem::path forged_model_path(const ModelSpec& spec, const std::filesystem::path& out_dir) {
    return out_dir / (spec.name + "-" + std::string(weight_type_name(spec.weight_type)) + "-" + spec_hash(spec) + ".gguf");
}

Expected<bool> is_synthetic_model(const std::filesystem::path& path) {
    auto header = gguf::read_header(path);
    if (!header) return header.error();
    const gguf::Value* v = header->find(kSyntheticKey);
    return v != nullptr && v->type == ValueType::Bool && v->u != 0;
}

Expected<ForgeResult> forge_model(const ModelSpec& spec, const ForgeOptions& options) {
    ForgeResult result;
    result.path = forged_model_path(spec, options.out_dir);
    result.weight_bytes = estimated_weight_bytes(spec);
    result.parameters = parameter_count(spec);

    std::error_code ec;
    if (std::filesystem::is_regular_file(result.path, ec)) {
        // The hash is in the name, but a file from a crashed copy or another tool must not pass.
        auto header = gguf::read_header(result.path);
        const gguf::Value* hash = header ? header->find(kSpecHashKey) : nullptr;
        if (hash && hash->s == spec_hash(spec)) {
            result.reused = true;
            result.file_bytes = std::filesystem::file_size(result.path, ec);
            return result;
        }
    }

    // The guard comes first: a model that does not fit is never read, padded or written.
    if (options.max_bytes == 0) return make_error(spec.name + ": no size limit given (ForgeOptions::max_bytes); not forged");
    if (result.weight_bytes > options.max_bytes)
        return make_error(spec.name + ": needs " + gib(result.weight_bytes) + " of weights, limit is " + gib(options.max_bytes) +
                          "; not forged");

    auto tokenizer = tokenizer_metadata(spec, options.vocab_dir / spec.vocab_file);
    if (!tokenizer) return tokenizer.error();
    auto metadata = model_metadata(spec);
    for (auto& kv : *tokenizer) metadata.push_back(std::move(kv));

    const auto plan = tensor_plan(spec);
    std::vector<gguf::TensorToWrite> tensors;
    tensors.reserve(plan.size());
    for (const auto& t : plan) tensors.push_back({t.name, t.dims, gguf_type(t.type), t.bytes()});

    result.file_bytes = gguf::file_size(metadata, tensors);
    if (result.file_bytes > options.max_bytes)
        return make_error(spec.name + ": file would be " + gib(result.file_bytes) + ", limit is " + gib(options.max_bytes) + "; not forged");

    std::filesystem::create_directories(options.out_dir, ec);
    if (ec) return make_error(options.out_dir.string() + ": cannot create: " + ec.message());

    const auto start = std::chrono::steady_clock::now();
    detail::Random rng(spec.seed);
    auto status = gguf::write_file(result.path, metadata, tensors, [&](std::size_t index, std::vector<std::uint8_t>& buffer) {
        detail::fill_random(plan[index].type, is_norm(plan[index].name), rng, buffer);
    });
    if (!status) return status.error();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace perfgate::forge
