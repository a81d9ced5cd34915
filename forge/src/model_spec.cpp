// Model spec JSON: parsing with file:line errors, and validation of the shape against what the
// forge (and llama.cpp's loader) can represent.
#include <algorithm>
#include <limits>
#include <utility>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "perfgate/core/json_fields.hpp"
#include "perfgate/core/json_input.hpp"
#include "perfgate/forge/model_spec.hpp"

namespace perfgate::forge {
namespace {

using nlohmann::json;

// A spec is one flat object: every field is read from the top level, and a problem about a key
// names the line of its value (or the object's first line when the key is absent).
class SpecReader {
public:
    explicit SpecReader(const JsonDocument& doc) : doc_(doc), fields_(doc) {}

    Error error() const { return fields_.error(); }
    bool ok() const { return !fields_.failed(); }

    void fail(std::string_view key, const std::string& what) { fields_.fail(key.empty() ? "" : json_pointer_child("", key), what); }

    void only_known_keys() {
        static constexpr std::string_view known[] = {
            "name", "description", "architecture", "vocab_file", "vocab_size", "context_length",
            "embedding_length", "block_count", "feed_forward_length", "head_count", "head_count_kv",
            "head_dim", "rope_freq_base", "rms_norm_eps", "tied_embeddings", "expert_count",
            "expert_used_count", "expert_feed_forward_length", "weight_type", "seed"};
        fields_.only_keys(doc_.value, "", known, "the model spec");
    }

    std::string text(const char* key, bool required) {
        return fields_.string(doc_.value, "", key, need(required)).value_or("");
    }

    std::uint64_t count(const char* key, bool required, std::uint64_t fallback = 0) {
        return fields_.unsigned_integer(doc_.value, "", key, 1, need(required)).value_or(fallback);
    }

    double real(const char* key, double fallback) {
        const auto v = fields_.number(doc_.value, "", key);
        if (!v) return fallback;
        if (*v <= 0) {
            fail(key, std::string("\"") + key + "\" must be a positive number");
            return fallback;
        }
        return *v;
    }

    bool flag(const char* key, bool fallback) { return fields_.boolean(doc_.value, "", key).value_or(fallback); }

private:
    static JsonFields::Need need(bool required) { return required ? JsonFields::Need::required : JsonFields::Need::optional; }

    const JsonDocument& doc_;
    JsonFields fields_;
};

bool file_name_friendly(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    });
}

}  // namespace

std::string_view weight_type_name(WeightType type) {
    switch (type) {
        case WeightType::F32: return "F32";
        case WeightType::F16: return "F16";
        case WeightType::Q8_0: return "Q8_0";
        case WeightType::Q4_0: return "Q4_0";
    }
    return "?";
}

std::optional<WeightType> weight_type_from_name(std::string_view name) {
    for (auto t : {WeightType::F32, WeightType::F16, WeightType::Q8_0, WeightType::Q4_0})
        if (weight_type_name(t) == name) return t;
    return std::nullopt;
}

std::string_view architecture_name(Architecture arch) {
    switch (arch) {
        case Architecture::Llama: return "llama";
        case Architecture::Qwen3: return "qwen3";
        case Architecture::Qwen3Moe: return "qwen3moe";
    }
    return "?";
}

Expected<ModelSpec> parse_model_spec(std::string_view json_text, const std::string& origin) {
    auto doc = parse_json_document(json_text, origin);
    if (!doc) return doc.error();
    const json& j = doc->value;
    if (!j.is_object()) return make_error(origin + ":1: a model spec must be a JSON object");

    SpecReader r(*doc);
    r.only_known_keys();

    ModelSpec s;
    s.name = r.text("name", true);
    if (r.ok() && !file_name_friendly(s.name)) r.fail("name", "\"name\" may hold only letters, digits, '-', '_' and '.'");
    s.description = r.text("description", false);

    const std::string arch = r.text("architecture", true);
    if (arch == "llama") s.architecture = Architecture::Llama;
    else if (arch == "qwen3") s.architecture = Architecture::Qwen3;
    else if (arch == "qwen3moe") s.architecture = Architecture::Qwen3Moe;
    else if (r.ok()) r.fail("architecture", "\"architecture\" must be one of llama, qwen3, qwen3moe (got \"" + arch + "\")");
    const bool moe = s.architecture == Architecture::Qwen3Moe;

    s.vocab_file = r.text("vocab_file", true);
    if (r.ok() && (s.vocab_file.find('/') != std::string::npos || !s.vocab_file.ends_with(".gguf")))
        r.fail("vocab_file", "\"vocab_file\" must be a file name in llama.cpp's models/ folder, ending in .gguf");
    s.vocab_size = r.count("vocab_size", true);
    s.context_length = r.count("context_length", true);
    s.embedding_length = r.count("embedding_length", true);
    s.block_count = r.count("block_count", true);
    s.feed_forward_length = r.count("feed_forward_length", !moe);
    s.head_count = r.count("head_count", true);
    s.head_count_kv = r.count("head_count_kv", false, s.head_count);
    s.head_dim = r.count("head_dim", false, s.head_count ? s.embedding_length / s.head_count : 0);
    s.rope_freq_base = r.real("rope_freq_base", 10000.0);
    s.rms_norm_eps = r.real("rms_norm_eps", 1e-5);
    s.tied_embeddings = r.flag("tied_embeddings", false);
    s.expert_count = r.count("expert_count", moe);
    s.expert_used_count = r.count("expert_used_count", moe);
    s.expert_feed_forward_length = r.count("expert_feed_forward_length", moe);
    s.seed = j.contains("seed") ? r.count("seed", false, 1) : 1;

    const std::string wt = r.text("weight_type", true);
    if (auto t = weight_type_from_name(wt); t && *t != WeightType::F32) s.weight_type = *t;
    else if (r.ok()) r.fail("weight_type", "\"weight_type\" must be one of Q4_0, Q8_0, F16 (got \"" + wt + "\")");

    if (!r.ok()) return r.error();

    // Bounds first: the shape rules below multiply these numbers, and the size check after them
    // must see no wrapped product.
    for (const auto& [key, value] : {std::pair<const char*, std::uint64_t>{"vocab_size", s.vocab_size},
                                     {"context_length", s.context_length}, {"embedding_length", s.embedding_length},
                                     {"block_count", s.block_count}, {"feed_forward_length", s.feed_forward_length},
                                     {"head_count", s.head_count}, {"head_count_kv", s.head_count_kv}, {"head_dim", s.head_dim},
                                     {"expert_count", s.expert_count}, {"expert_used_count", s.expert_used_count},
                                     {"expert_feed_forward_length", s.expert_feed_forward_length}})
        if (value > kMaxSpecCount)
            r.fail(j.contains(key) ? key : "", "\"" + std::string(key) + "\" is " + std::to_string(value) +
                                                   ", above the 4294967295 a GGUF file can hold");
    if (s.block_count > kMaxBlockCount)
        r.fail("block_count", "\"block_count\" is " + std::to_string(s.block_count) + ", above the limit of " +
                                  std::to_string(kMaxBlockCount) + " blocks");
    if (s.vocab_size > kMaxVocabSize)
        r.fail("vocab_size", "\"vocab_size\" is " + std::to_string(s.vocab_size) + ", above the limit of " +
                                 std::to_string(kMaxVocabSize) + " tokens");
    if (!r.ok()) return r.error();

    // Shape rules llama.cpp's loader relies on.
    if (s.head_count % s.head_count_kv != 0) r.fail("head_count_kv", "\"head_count\" must be a multiple of \"head_count_kv\"");
    if (!moe && (j.contains("expert_count") || j.contains("expert_used_count")))
        r.fail("expert_count", "experts are only valid for architecture qwen3moe");
    if (moe && s.expert_used_count > s.expert_count) r.fail("expert_used_count", "\"expert_used_count\" exceeds \"expert_count\"");
    if (s.architecture == Architecture::Llama && s.head_dim * s.head_count != s.embedding_length)
        r.fail("head_dim", "llama needs head_count * head_dim == embedding_length");
    if (s.head_dim % 2 != 0) r.fail("head_dim", "\"head_dim\" must be even (rotary embedding)");
    if (!r.ok()) return r.error();

    // The size, from one block's shapes (no tensor list is built for it), before anything that
    // lists every tensor.
    if (const auto bytes = estimated_weight_bytes(s); bytes > kMaxSpecWeightBytes)
        r.fail("block_count", "the weights would take " +
                                  (bytes == std::numeric_limits<std::uint64_t>::max() ? std::string("more than 2^64 bytes")
                                                                                      : std::to_string(bytes) + " bytes") +
                                  ", above the limit of " + std::to_string(kMaxSpecWeightBytes) +
                                  " bytes (4 TiB) a spec may describe");
    if (!r.ok()) return r.error();

    // Quantized rows are made of 32-value blocks: every row length must be a multiple of 32.
    if (s.weight_type == WeightType::Q4_0 || s.weight_type == WeightType::Q8_0) {
        for (const auto& t : tensor_plan(s)) {
            if (t.type == s.weight_type && t.dims[0] % 32 != 0) {
                r.fail(t.name.find("ffn_down") != std::string::npos ? (moe ? "expert_feed_forward_length" : "feed_forward_length") : "embedding_length",
                       "tensor " + t.name + " has rows of " + std::to_string(t.dims[0]) + " values, not a multiple of 32 as " +
                           std::string(weight_type_name(s.weight_type)) + " needs");
                break;
            }
        }
    }
    if (!r.ok()) return r.error();
    return s;
}

Expected<ModelSpec> load_model_spec(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(path.string() + ": cannot open model spec");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_model_spec(text.str(), path.string());
}

}  // namespace perfgate::forge
