// Forging: the file read back has exactly the spec's tensors, hyper-parameters and tokenizer; the
// cache and the size guard work; Q4_0/Q8_0 blocks carry finite scales.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <fstream>

#include "forge_test_support.hpp"
#include "perfgate/forge/forge.hpp"
#include "gguf.hpp"

using namespace perfgate::forge;

namespace {

std::uint64_t meta_u(const gguf::Header& h, const std::string& key) {
    const auto* v = h.find(key);
    REQUIRE(v != nullptr);
    return v->u;
}

float f16_to_float(std::uint16_t h) {
    const int exponent = (h >> 10) & 0x1f;
    const float mantissa = static_cast<float>(h & 0x3ff);
    const float sign = (h & 0x8000) ? -1.0f : 1.0f;
    if (exponent == 0) return sign * std::ldexp(mantissa, -24);
    if (exponent == 31) return mantissa == 0 ? sign * INFINITY : NAN;
    return sign * std::ldexp(1.0f + mantissa / 1024.0f, exponent - 15);
}

// Forges the CI spec against a stand-in vocabulary 10 tokens short, so padding is exercised.
struct TinyForge {
    forge_test::ScratchDir dir;
    ModelSpec spec = forge_test::load_repo_spec("tiny-llama-ci");
    ForgeOptions options;
    TinyForge() {
        forge_test::write_stand_in_vocab(dir.path, spec.vocab_file, spec.vocab_size - 10);
        options.out_dir = dir.path / "models";
        options.vocab_dir = dir.path;
        options.max_bytes = 1ULL << 30;
    }
};

std::size_t files_in(const std::filesystem::path& dir) {
    if (!std::filesystem::exists(dir)) return 0;
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{}));
}

}  // namespace

TEST_CASE("a forged model has exactly the tensors and parameters of its spec", "[forge][gguf]") {
    TinyForge t;
    auto result = forge_model(t.spec, t.options);
    REQUIRE(result);
    CHECK_FALSE(result->reused);
    CHECK(result->synthetic);
    CHECK(std::filesystem::file_size(result->path) == result->file_bytes);

    auto header = gguf::read_header(result->path);
    REQUIRE(header);
    const auto plan = tensor_plan(t.spec);
    REQUIRE(header->tensors.size() == plan.size());
    std::uint64_t params = 0, next_offset = 0;
    for (std::size_t k = 0; k < plan.size(); ++k) {
        const auto& read = header->tensors[k];
        INFO(plan[k].name);
        CHECK(read.name == plan[k].name);
        CHECK(read.dims == plan[k].dims);
        CHECK(read.offset == next_offset);
        CHECK(read.offset % gguf::kAlignment == 0);
        std::uint64_t n = 1;
        for (auto d : read.dims) n *= d;
        params += n;
        next_offset = read.offset + (tensor_bytes(plan[k].type, n) + 31) / 32 * 32;
    }
    CHECK(params == parameter_count(t.spec));
    CHECK(header->data_offset + next_offset == result->file_bytes);

    CHECK(header->find("general.architecture")->s == "llama");
    CHECK(meta_u(*header, "llama.block_count") == t.spec.block_count);
    CHECK(meta_u(*header, "llama.embedding_length") == t.spec.embedding_length);
    CHECK(meta_u(*header, "llama.attention.head_count_kv") == t.spec.head_count_kv);
    CHECK(meta_u(*header, "general.file_type") == 7);  // llama.cpp's MOSTLY_Q8_0
    const auto* tokens = header->find("tokenizer.ggml.tokens");
    REQUIRE(tokens != nullptr);
    CHECK(tokens->items.size() == t.spec.vocab_size);
    CHECK(tokens->items.back().s == "[PAD31999]");
    CHECK(header->find("tokenizer.ggml.scores")->items.size() == t.spec.vocab_size);
    CHECK(header->find("tokenizer.ggml.token_type")->items.back().i == 5);
    CHECK(meta_u(*header, "tokenizer.ggml.bos_token_id") == 1);

    auto synthetic = is_synthetic_model(result->path);
    REQUIRE(synthetic);
    CHECK(*synthetic);
    auto vocab = is_synthetic_model(t.options.vocab_dir / t.spec.vocab_file);
    REQUIRE(vocab);
    CHECK_FALSE(*vocab);
}

TEST_CASE("quantized blocks carry small finite scales", "[forge][gguf]") {
    for (auto type : {WeightType::Q4_0, WeightType::Q8_0, WeightType::F16}) {
        TinyForge t;
        t.spec.weight_type = type;
        auto result = forge_model(t.spec, t.options);
        REQUIRE(result);
        auto header = gguf::read_header(result->path);
        REQUIRE(header);
        const auto& embd = header->tensors.front();
        REQUIRE(embd.name == "token_embd.weight");
        CHECK(embd.type == static_cast<std::uint32_t>(type == WeightType::Q4_0 ? 2 : type == WeightType::Q8_0 ? 8 : 1));
        std::ifstream in(result->path, std::ios::binary);
        in.seekg(static_cast<std::streamoff>(header->data_offset + embd.offset));
        const std::size_t stride = type == WeightType::Q4_0 ? 18 : type == WeightType::Q8_0 ? 34 : 2;
        std::vector<std::uint8_t> bytes(stride * 1000);
        in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        REQUIRE(in.gcount() == static_cast<std::streamsize>(bytes.size()));
        bool varied = false;
        for (std::size_t at = 0; at < bytes.size(); at += stride) {
            std::uint16_t h;
            std::memcpy(&h, &bytes[at], 2);
            const float v = f16_to_float(h);
            INFO(weight_type_name(type) << " value " << v);
            CHECK(std::isfinite(v));
            CHECK(std::fabs(v) < 0.05f);
            if (type != WeightType::F16) CHECK(v > 0.0f);
            const std::size_t payload = type == WeightType::F16 ? 0 : 2;  // F16: the value itself
            if (at > 0 && std::memcmp(&bytes[at + payload], &bytes[payload], stride - payload) != 0) varied = true;
        }
        CHECK(varied);  // random, not a constant fill
    }
}

TEST_CASE("a forged model is cached by spec hash", "[forge][gguf]") {
    TinyForge t;
    auto first = forge_model(t.spec, t.options);
    REQUIRE(first);
    CHECK(first->path.filename().string() == "tiny-llama-ci-Q8_0-" + spec_hash(t.spec) + ".gguf");
    const auto written = std::filesystem::last_write_time(first->path);
    auto again = forge_model(t.spec, t.options);
    REQUIRE(again);
    CHECK(again->reused);
    CHECK(again->path == first->path);
    CHECK(std::filesystem::last_write_time(again->path) == written);

    auto other = t.spec;
    other.seed = 7;
    auto second = forge_model(other, t.options);
    REQUIRE(second);
    CHECK_FALSE(second->reused);
    CHECK(second->path != first->path);
    CHECK(files_in(t.options.out_dir) == 2);  // no temporary left behind
}

TEST_CASE("a model beyond the size limit is refused and never written", "[forge][gguf]") {
    TinyForge t;
    t.options.max_bytes = 0;  // no limit given: refuse rather than write without a guard
    auto unguarded = forge_model(t.spec, t.options);
    REQUIRE_FALSE(unguarded);
    CHECK_THAT(unguarded.error().message, Catch::Contains("no size limit given"));
    CHECK(files_in(t.options.out_dir) == 0);

    t.options.max_bytes = estimated_weight_bytes(t.spec) - 1;
    auto refused = forge_model(t.spec, t.options);
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains("tiny-llama-ci: needs") && Catch::Contains("not forged"));
    CHECK(files_in(t.options.out_dir) == 0);

    auto big = forge_test::load_repo_spec("llama-3.1-70b");
    t.options.max_bytes = 24ULL << 30;
    auto refused_big = forge_model(big, t.options);
    REQUIRE_FALSE(refused_big);
    CHECK_THAT(refused_big.error().message, Catch::Contains("llama-3.1-70b: needs 3"));
    CHECK_FALSE(std::filesystem::exists(forged_model_path(big, t.options.out_dir)));
    CHECK(files_in(t.options.out_dir) == 0);
}

TEST_CASE("the GGUF reader reports truncated and foreign files", "[forge][gguf]") {
    TinyForge t;
    auto result = forge_model(t.spec, t.options);
    REQUIRE(result);
    const auto cut = t.dir.path / "cut.gguf";
    std::filesystem::copy_file(result->path, cut);
    std::filesystem::resize_file(cut, 200'000);  // inside the token list
    auto truncated = gguf::read_header(cut);
    REQUIRE_FALSE(truncated);
    CHECK_THAT(truncated.error().message, Catch::Contains("cut.gguf: byte ") && Catch::Contains("ends inside the header"));

    const auto text = t.dir.path / "text.gguf";
    std::ofstream(text) << "not a model";
    auto foreign = gguf::read_header(text);
    REQUIRE_FALSE(foreign);
    CHECK_THAT(foreign.error().message, Catch::Contains("bad magic"));
}
