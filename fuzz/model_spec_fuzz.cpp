// perf/models/*.json model specs: an accepted spec satisfies the shape rules the forge and
// llama.cpp's loader rely on (checked here in 128-bit arithmetic, so a product that wraps in 64
// bits cannot sneak through); a rejected one names the file and a real line.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "perfgate/forge/model_spec.hpp"

using perfgate::fuzz::check;
using perfgate::fuzz::names_file_and_line;
using perfgate::forge::Architecture;
using perfgate::forge::WeightType;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::string origin = "perf/models/fuzz.json";
    auto spec = perfgate::forge::parse_model_spec(text, origin);
    if (!spec) {
        check(names_file_and_line(spec.error().message, origin, text), "spec error names file:line", spec.error().message);
        return 0;
    }
    const auto& s = *spec;
    check(!s.name.empty() && s.name.find('/') == std::string::npos && s.name.find("..") != 0, "name is file-name friendly", s.name);
    check(s.vocab_file.find('/') == std::string::npos && s.vocab_file.ends_with(".gguf"), "vocab file is a bare .gguf name");
    check(s.vocab_size > 0 && s.context_length > 0 && s.embedding_length > 0 && s.block_count > 0 && s.head_count > 0 &&
              s.head_count_kv > 0, "required counts are positive");
    check(s.head_count % s.head_count_kv == 0, "head_count is a multiple of head_count_kv");
    check(s.head_dim % 2 == 0, "head_dim is even");
    if (s.architecture == Architecture::Llama)
        check(static_cast<unsigned __int128>(s.head_dim) * s.head_count == s.embedding_length,
              "llama: head_count * head_dim == embedding_length without wrapping");
    if (s.architecture == Architecture::Qwen3Moe)
        check(s.expert_count > 0 && s.expert_used_count > 0 && s.expert_used_count <= s.expert_count, "MoE expert counts");
    else
        check(s.expert_count == 0 && s.expert_used_count == 0, "experts only for qwen3moe");
    check(s.block_count <= perfgate::forge::kMaxBlockCount && s.vocab_size <= perfgate::forge::kMaxVocabSize,
          "block and vocabulary counts within their limits");
    check(perfgate::forge::estimated_weight_bytes(s) <= perfgate::forge::kMaxSpecWeightBytes,
          "weights within the limit a spec may describe");
    check(s.weight_type != WeightType::F32, "2-D weights are never F32 in a spec");
    check(s.rope_freq_base > 0 && s.rms_norm_eps > 0, "rope base and norm epsilon are positive");
    const std::string hash = perfgate::forge::spec_hash(s);
    check(hash.size() == 16 && hash.find_first_not_of("0123456789abcdef") == std::string::npos, "spec hash is 16 hex digits", hash);
    return 0;
}
