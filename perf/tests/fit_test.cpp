// The memory guard on replayed machines: the probes' recorded Strix Halo (96 GiB carve-out,
// 31 GiB host RAM) and the same machine's files without its GPU tools.
#include <catch2/catch.hpp>

#include <fstream>

#include "perfgate/forge/model_spec.hpp"
#include "perfgate/perf/fit.hpp"
#include "perfgate/perf/host_probe.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;

static const auto kMachine = test::source() / "probes/tests/data/machines/strixhalo-96g-mlxcel";

static HostContext strix_halo() {
    HostProbeOptions o;
    o.sysroot = (kMachine / "root").string();
    o.search_path = (kMachine / "bin").string();
    o.runtime_kind = "mlxcel";
    o.runtime_binary = "mlxcel";
    auto h = probe_host_context(o);
    REQUIRE(h);
    return *h;
}

static HostContext no_gpu_host() {
    HostProbeOptions o;
    o.sysroot = (kMachine / "root").string();
    o.search_path = test::temp_dir("no-tools").string();
    auto h = probe_host_context(o);
    REQUIRE(h);
    return *h;
}

static SuiteModel model_gb(double gb) {
    SuiteModel m;
    m.name = "m";
    m.checkpoint = "/nonexistent";
    m.weight_bytes = static_cast<std::uint64_t>(gb * 1e9);
    return m;
}

TEST_CASE("replayed Strix Halo runs a 60 GB model and skips a 110 GB one", "[fit][replay]") {
    const HostContext host = strix_halo();
    CHECK(host.backend == "rocm");
    CHECK(host.host == "strixhalo-gfx1151");
    CHECK_FALSE(host.replay.empty());
    Suite suite;
    auto e60 = estimate_memory(model_gb(60), suite);
    REQUIRE(e60);
    const auto fit60 = check_fit(*e60, host);
    CHECK(fit60.fits);
    CHECK(fit60.message == "needs 56.4 GiB, device has 81.6 GiB usable");
    auto e110 = estimate_memory(model_gb(110), suite);
    REQUIRE(e110);
    const auto fit110 = check_fit(*e110, host);
    CHECK_FALSE(fit110.fits);
    CHECK(fit110.message == "needs 102.9 GiB, device has 81.6 GiB usable");
}

TEST_CASE("replayed 31 GiB host without a GPU skips the 60 GB model", "[fit][replay]") {
    const HostContext host = no_gpu_host();
    CHECK(host.backend == "cpu");
    REQUIRE(host.usable_memory_bytes);
    CHECK(*host.usable_memory_bytes < 31ull << 30);
    Suite suite;
    auto e60 = estimate_memory(model_gb(60), suite);
    REQUIRE(e60);
    const auto fit = check_fit(*e60, host);
    CHECK_FALSE(fit.fits);
    CHECK_THAT(fit.message, Catch::StartsWith("needs 56.4 GiB, host has 2"));
    CHECK(host_has_backend(host, "cpu"));
    CHECK_FALSE(host_has_backend(host, "rocm"));
}

TEST_CASE("estimates: forge spec weights plus KV cache, unknown sizes are input errors", "[fit]") {
    auto suite = load_suite(test::source() / "perf/suites/cpu.json");
    REQUIRE(suite);
    auto e70 = estimate_memory(*suite->find_model("llama-3.1-70b"), *suite);
    REQUIRE(e70);
    CHECK(e70->weight_source == "forge spec");
    CHECK(e70->weight_bytes > 35ull << 30);   // Q4_0 70B is about 37 GiB of weights
    CHECK(e70->weight_bytes < 42ull << 30);
    CHECK(e70->kv_cache_bytes == 2ull * 80 * 8 * 128 * 640 * 2);  // K+V, 80 layers, 8 KV heads of 128, 640 tokens, f16
    // What a decoded token reads (the row's active_model_bytes): the forge's count, one row of the
    // untied embedding instead of all of them.
    const auto spec70 = perfgate::forge::load_model_spec(test::source() / "perf/models/llama-3.1-70b.json");
    REQUIRE(spec70);
    CHECK(e70->read_per_token_bytes == perfgate::forge::bytes_read_per_token(*spec70));
    CHECK(e70->read_per_token_bytes < e70->weight_bytes);
    SuiteModel unknown;
    unknown.name = "u";
    unknown.checkpoint = "/nonexistent/model";
    CHECK_FALSE(estimate_memory(unknown, *suite));
    HostContext no_budget;
    CHECK_FALSE(check_fit(*e70, no_budget).budget_known);
    CHECK(check_fit(*e70, no_budget).fits);  // unknown budget: run anyway, as mlxcel does for size 0
}

TEST_CASE("the memory guard refuses a forge spec of ten million blocks before estimating it", "[fit][bounds]") {
    // Hardening issue, item 6: the guard's estimate once listed every tensor of the spec (13 GB).
    auto suite = load_suite(test::source() / "perf/suites/cpu.json");
    REQUIRE(suite);
    const auto dir = test::temp_dir("fit-huge-spec");
    const auto spec = dir / "huge.json";
    std::ofstream(spec) << "{\n  \"name\": \"huge\",\n  \"architecture\": \"llama\",\n"
                           "  \"vocab_file\": \"ggml-vocab-llama-spm.gguf\",\n  \"vocab_size\": 32000,\n"
                           "  \"context_length\": 512,\n  \"embedding_length\": 128,\n  \"block_count\": 10000000,\n"
                           "  \"feed_forward_length\": 256,\n  \"head_count\": 4,\n  \"weight_type\": \"Q4_0\"\n}\n";
    SuiteModel m;
    m.name = "huge";
    m.forge_spec = spec;
    const auto e = estimate_memory(m, *suite);
    REQUIRE_FALSE(e);
    CHECK(e.error().message == spec.string() + ":8: \"block_count\" is 10000000, above the limit of 1024 blocks");
}
