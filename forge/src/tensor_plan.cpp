// The tensor layout of each supported architecture, as llama.cpp's loader (src/models/<arch>.cpp
// in the pinned release) creates it. Everything derived from a spec's size lives here, so the
// forge, the parameter count and the runner's memory estimate can never disagree. Sizes are
// computed from one block times block_count, in saturating arithmetic, so estimating a spec's size
// allocates nothing in proportion to it and never wraps.
#include <cstdio>

#include "perfgate/core/checked_math.hpp"
#include "perfgate/forge/model_spec.hpp"

namespace perfgate::forge {
namespace {

std::string block(std::uint64_t layer, const char* what) {
    char name[96];
    std::snprintf(name, sizeof name, "blk.%llu.%s.weight", static_cast<unsigned long long>(layer), what);
    return name;
}

// 64-bit FNV-1a: small, stable across platforms and compilers (std::hash is neither).
struct Fnv1a {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    void add(std::string_view s) {
        for (unsigned char c : s) { h ^= c; h *= 0x100000001b3ULL; }
        add_separator();
    }
    void add(std::uint64_t v) { add(std::string_view(std::to_string(v))); }
    void add_separator() { h ^= 0xff; h *= 0x100000001b3ULL; }
};

}  // namespace

std::uint64_t tensor_bytes(WeightType type, std::uint64_t elements) {
    switch (type) {
        case WeightType::F32: return saturating_multiply(elements, 4);
        case WeightType::F16: return saturating_multiply(elements, 2);
        case WeightType::Q8_0: return saturating_multiply(elements / 32, 34);  // f16 scale + 32 int8
        case WeightType::Q4_0: return saturating_multiply(elements / 32, 18);  // f16 scale + 32 packed nibbles
    }
    return 0;
}

std::uint64_t TensorPlan::elements() const {
    std::uint64_t n = 1;
    for (auto d : dims) n = saturating_multiply(n, d);
    return n;
}

std::uint64_t TensorPlan::bytes() const { return tensor_bytes(type, elements()); }

namespace {

// The tensors before the blocks, those of block `layer`, and those after the blocks. Every block
// has the same shapes, so sizes are computed from one block without listing them all.
std::vector<TensorPlan> leading_tensors(const ModelSpec& s) {
    return {{"token_embd.weight", {s.embedding_length, s.vocab_size}, s.weight_type}};
}

std::vector<TensorPlan> block_tensors(const ModelSpec& s, std::uint64_t i) {
    const WeightType w = s.weight_type;
    const std::uint64_t e = s.embedding_length;
    const std::uint64_t q = saturating_multiply(s.head_count, s.head_dim);
    const std::uint64_t kv = saturating_multiply(s.head_count_kv, s.head_dim);
    std::vector<TensorPlan> plan;
    plan.push_back({block(i, "attn_norm"), {e}, WeightType::F32});
    plan.push_back({block(i, "attn_q"), {e, q}, w});
    plan.push_back({block(i, "attn_k"), {e, kv}, w});
    plan.push_back({block(i, "attn_v"), {e, kv}, w});
    plan.push_back({block(i, "attn_output"), {q, e}, w});
    if (s.architecture != Architecture::Llama) {
        // Qwen3 normalises each head's query and key.
        plan.push_back({block(i, "attn_q_norm"), {s.head_dim}, WeightType::F32});
        plan.push_back({block(i, "attn_k_norm"), {s.head_dim}, WeightType::F32});
    }
    plan.push_back({block(i, "ffn_norm"), {e}, WeightType::F32});
    if (s.architecture == Architecture::Qwen3Moe) {
        const std::uint64_t f = s.expert_feed_forward_length;
        const std::uint64_t x = s.expert_count;
        // The router stays F32, as llama-quantize leaves it.
        plan.push_back({block(i, "ffn_gate_inp"), {e, x}, WeightType::F32});
        plan.push_back({block(i, "ffn_gate_exps"), {e, f, x}, w});
        plan.push_back({block(i, "ffn_down_exps"), {f, e, x}, w});
        plan.push_back({block(i, "ffn_up_exps"), {e, f, x}, w});
    } else {
        const std::uint64_t f = s.feed_forward_length;
        plan.push_back({block(i, "ffn_gate"), {e, f}, w});
        plan.push_back({block(i, "ffn_down"), {f, e}, w});
        plan.push_back({block(i, "ffn_up"), {e, f}, w});
    }
    return plan;
}

std::vector<TensorPlan> trailing_tensors(const ModelSpec& s) {
    std::vector<TensorPlan> plan = {{"output_norm.weight", {s.embedding_length}, WeightType::F32}};
    if (!s.tied_embeddings) plan.push_back({"output.weight", {s.embedding_length, s.vocab_size}, s.weight_type});
    return plan;
}

// Sum of `measure` over every tensor of the file, saturating at the largest 64-bit value.
template <class Measure>
std::uint64_t sum_over_tensors(const ModelSpec& s, Measure measure) {
    std::uint64_t per_block = 0, outside = 0;
    for (const auto& t : block_tensors(s, 0)) per_block = saturating_add(per_block, measure(t));
    for (const auto& t : leading_tensors(s)) outside = saturating_add(outside, measure(t));
    for (const auto& t : trailing_tensors(s)) outside = saturating_add(outside, measure(t));
    return saturating_add(outside, saturating_multiply(per_block, s.block_count));
}

}  // namespace

std::vector<TensorPlan> tensor_plan(const ModelSpec& s) {
    std::vector<TensorPlan> plan = leading_tensors(s);
    for (std::uint64_t i = 0; i < s.block_count; ++i)
        for (auto& t : block_tensors(s, i)) plan.push_back(std::move(t));
    for (auto& t : trailing_tensors(s)) plan.push_back(std::move(t));
    return plan;
}

std::uint64_t parameter_count(const ModelSpec& spec) {
    return sum_over_tensors(spec, [](const TensorPlan& t) { return t.elements(); });
}

std::uint64_t estimated_weight_bytes(const ModelSpec& spec) {
    return sum_over_tensors(spec, [](const TensorPlan& t) { return t.bytes(); });
}

std::uint64_t bytes_read_per_token(const ModelSpec& spec) {
    return sum_over_tensors(spec, [&](const TensorPlan& t) -> std::uint64_t {
        const std::uint64_t bytes = t.bytes();
        if (t.name.find("_exps.") != std::string::npos && spec.expert_count > 0)
            return bytes / spec.expert_count * spec.expert_used_count;  // whole experts: divides exactly
        if (t.name == "token_embd.weight" && !spec.tied_embeddings && spec.vocab_size > 0) return bytes / spec.vocab_size;
        return bytes;
    });
}

std::string spec_hash(const ModelSpec& s) {
    Fnv1a h;
    h.add(std::string_view("perfgate-forge-v1"));  // bump when the forge writes different bytes
    h.add(std::string_view(s.name));
    h.add(architecture_name(s.architecture));
    h.add(std::string_view(s.vocab_file));
    for (auto v : {s.vocab_size, s.context_length, s.embedding_length, s.block_count, s.feed_forward_length, s.head_count,
                   s.head_count_kv, s.head_dim, s.expert_count, s.expert_used_count, s.expert_feed_forward_length, s.seed})
        h.add(v);
    char real[64];
    std::snprintf(real, sizeof real, "%.9g/%.9g", s.rope_freq_base, s.rms_norm_eps);
    h.add(std::string_view(real));
    h.add(std::uint64_t{s.tied_embeddings ? 1u : 0u});
    h.add(weight_type_name(s.weight_type));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h.h));
    return hex;
}

}  // namespace perfgate::forge
