#include <catch2/catch.hpp>
#include <regex>

#include "adapter_util.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/perf/adapters.hpp"
#include "perfgate/perf/llama_bench_tests.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
using perfgate::perf::test::recorded;
namespace fs = std::filesystem;

static fs::path probe_fixture(const std::string& name) { return test::fixtures() / "probe-outputs" / name; }

TEST_CASE("mlxcel generate: the [Generated ...] line of a real Metal run", "[adapters][mlxcel]") {
    const auto m = parse_mlxcel_generate(recorded(probe_fixture("mlxcel-generate_m1max_kubesimplify-blog.txt")));
    REQUIRE(m);
    CHECK(m->generated_tokens == 200);
    CHECK(*m->decode_tok_s == Approx(62.68));
    CHECK(*m->decode_ms == Approx(3190.0));
}

TEST_CASE("mlxcel generate: the ROCm probe output has no numbers", "[adapters][mlxcel]") {
    const auto text = recorded(probe_fixture("mlxcel-generate_rocm_gfx1151.txt"));
    const auto m = parse_mlxcel_generate(text);
    REQUIRE_FALSE(m);
    CHECK_THAT(m.error().message, Catch::Contains("Runtime device: GPU"));  // the excerpt
    CHECK_FALSE(parse_mlxcel_profile(text));
}

TEST_CASE("mlxcel [Profile Results]: replays give back the published rows", "[adapters][mlxcel]") {
    // Each replay recording carries a published row's numbers in mlxcel's profile layout; the
    // adapter must return exactly the numbers of that row of the real CSV.
    const auto csv = perfgate::read_results_csv(
        (test::fixtures() / "mlxcel-benchmarks/rocm_strixhalo-gfx1151_2026-09-30.csv").string());
    REQUIRE(csv);
    REQUIRE(csv->rows.size() == 5);
    for (const auto& row : csv->rows) {
        INFO(row.model);
        const auto m = parse_mlxcel_profile(recorded(test::source() / "perf/replay/recordings" / (row.model + ".txt")));
        REQUIRE(m);
        CHECK(m->prompt_tokens == row.prompt_tokens);
        CHECK(m->generated_tokens == row.generated_tokens);
        CHECK(*m->prefill_ms == Approx(*row.prefill_ms));
        CHECK(*m->prefill_tok_s == Approx(*row.prefill_tok_s));
        CHECK(*m->decode_ms == Approx(*row.decode_ms));
        CHECK(*m->decode_tok_s == Approx(*row.decode_tok_s));
        CHECK(m->facts.device == "AMD Radeon 8060S Graphics");
    }
}

TEST_CASE("mlx_lm.generate: all three statistics lines", "[adapters][mlx-lm]") {
    const auto m = parse_mlx_lm_generate(recorded(probe_fixture("mlx-lm-generate_qwen-small_kevinlights-fine-tuning-research.txt")));
    REQUIRE(m);
    CHECK(m->prompt_tokens == 7);
    CHECK(*m->prefill_tok_s == Approx(16.2));
    CHECK(m->generated_tokens == 20);
    CHECK(*m->decode_tok_s == Approx(98.705));
    CHECK(*m->facts.peak_memory_gb == Approx(1.065));
}

TEST_CASE("mlx_lm.generate: a paste without the Generation line", "[adapters][mlx-lm]") {
    const auto m = parse_mlx_lm_generate(recorded(probe_fixture("mlx-lm-stats_m2ultra_mlx-lm-pr-40.txt")));
    REQUIRE(m);
    CHECK_FALSE(m->decode_tok_s);  // the runner classifies this FAIL:no_output
    CHECK(m->prompt_tokens == 33898);
    CHECK(*m->prefill_tok_s == Approx(676.212));  // the first block wins
    CHECK(*m->facts.peak_memory_gb == Approx(12.257));
}

TEST_CASE("mlx_lm.benchmark: Trial lines are the samples and agree with its Averages line", "[adapters][mlx-lm]") {
    const auto text = recorded(probe_fixture("mlx-lm-benchmark_mlx-lm-pr-396.txt"));
    const auto m = parse_mlx_lm_benchmark(text);
    REQUIRE(m);
    CHECK(m->decode_samples.size() == 5);
    CHECK(m->prefill_samples.size() == 5);
    CHECK(m->prompt_tokens == 2048);
    CHECK(m->generated_tokens == 128);
    std::smatch avg;
    REQUIRE(std::regex_search(text, avg, std::regex("Averages: prompt_tps=([0-9.]+), generation_tps=([0-9.]+)")));
    CHECK(*m->prefill_tok_s == Approx(std::stod(avg[1].str())).epsilon(1e-5));
    CHECK(*m->decode_tok_s == Approx(std::stod(avg[2].str())).epsilon(1e-5));
    CHECK_FALSE(parse_mlx_lm_benchmark(recorded(probe_fixture("mlx-lm-generate_qwen-small_kevinlights-fine-tuning-research.txt"))));
}

TEST_CASE("llama-bench -o json: a real recording from the pinned build", "[adapters][llama-bench]") {
    const auto path = test::data() / "recorded/llama-bench-tiny-llama-ci.json";
    REQUIRE(fs::exists(path));
    const auto m = parse_llama_bench_json(test::slurp(path));
    REQUIRE(m);
    CHECK(m->prompt_tokens > 0);
    CHECK(m->generated_tokens > 0);
    REQUIRE(m->decode_samples.size() >= 2);
    REQUIRE(m->prefill_samples.size() == m->decode_samples.size());
    double sum = 0;
    for (double s : m->decode_samples) sum += s;
    CHECK(*m->decode_tok_s == Approx(sum / static_cast<double>(m->decode_samples.size())).epsilon(0.02));
    CHECK(m->facts.commit.size() >= 7);
    CHECK(m->facts.backends.find("CPU") != std::string::npos);
    CHECK_FALSE(m->facts.model_type.empty());
    CHECK(m->facts.model_size > 0u);
}

TEST_CASE("llama-bench JSON adapter refuses the markdown table and garbage", "[adapters][llama-bench]") {
    CHECK_FALSE(parse_llama_bench_json(recorded(probe_fixture("llama-bench_rocm_gfx1151_kyuz0-toolboxes.txt"))));
    CHECK_FALSE(parse_llama_bench_json("[{\"n_prompt\": 0, \"n_gen\": 0}]"));
    CHECK_FALSE(parse_llama_bench_json("[ not json"));
}

TEST_CASE("llama-bench JSON with a field nested 100,000 levels is refused, not a crash (issue 26 item 7)", "[adapters][llama-bench][bounds]") {
    // A real record with one extra field nested far beyond any output llama-bench prints: the
    // recursive dump of an unknown field overflowed the stack (exit 139, and no FAIL:bench row).
    const auto real = test::slurp(test::data() / "recorded/llama-bench-tiny-llama-ci.json");
    const auto open = real.find('{');
    REQUIRE(open != std::string::npos);
    const std::size_t depth = 100000;
    const auto hostile = real.substr(0, open + 1) + "\"extra\": " + std::string(depth, '[') + std::string(depth, ']') + ", " +
                         real.substr(open + 1);
    const auto m = parse_llama_bench_json(hostile);
    REQUIRE_FALSE(m);
    CHECK_THAT(m.error().message, Catch::Contains("nested deeper than 64 levels"));
    const auto jsonl = parse_llama_bench_jsonl("{\"extra\": " + std::string(depth, '[') + "}\n", "run.jsonl");
    REQUIRE_FALSE(jsonl);
    CHECK_THAT(jsonl.error().message, Catch::StartsWith("run.jsonl:1:") && Catch::Contains("nested deeper than 64 levels"));
}

TEST_CASE("Catch2 XML: a real recording of the Catch2 2.13 reporter", "[adapters][catch2]") {
    const auto text = test::slurp(test::data() / "recorded/catch2-benchmark.xml");
    const auto m = parse_catch2_xml(text, "sum of 1000 doubles");
    REQUIRE(m);
    REQUIRE(m->decode_ms);
    CHECK(*m->decode_tok_s == Approx(1000.0 / *m->decode_ms));
    CHECK(m->decode_stddev);
    CHECK(m->generated_tokens > 1);  // the samples count
    const auto missing = parse_catch2_xml(text, "no such benchmark");
    REQUIRE_FALSE(missing);
    CHECK_THAT(missing.error().message, Catch::Contains("sum of 1000 doubles"));
}

TEST_CASE("Catch2 XML: output that is not well-formed XML is an error with the line and an excerpt",
          "[adapters][catch2]") {
    auto text = test::slurp(test::data() / "recorded/catch2-benchmark.xml");
    text.erase(text.find("</BenchmarkResults>"), std::string("</BenchmarkResults>").size());  // cut short
    const auto m = parse_catch2_xml(text, "sum of 1000 doubles");
    REQUIRE_FALSE(m);
    CHECK_THAT(m.error().message, Catch::StartsWith("Catch2 XML: not well-formed XML (line ") &&
                                      Catch::Contains("output begins: <?xml version="));
    const auto garbage = parse_catch2_xml("Segmentation fault (core dumped)\n", "");
    REQUIRE_FALSE(garbage);
    CHECK_THAT(garbage.error().message, Catch::Contains("line 1") && Catch::Contains("Segmentation fault"));
}

TEST_CASE("Catch2 XML: a document nested deeper than any reporter writes is refused before the parse",
          "[adapters][catch2][security]") {
    // 200000 levels overflow the stack of the recursive parser; the refusal comes first.
    std::string deep;
    for (int i = 0; i < 200000; ++i) deep += "<a>";
    auto m = parse_catch2_xml(deep, "");
    REQUIRE_FALSE(m);
    CHECK_THAT(m.error().message, Catch::Contains("nested deeper than 64 levels"));
    // Levels hidden from a naive count: "/>" and "</" inside attribute values and comments, a
    // quote inside an element name. Each still opens a level for the parser, and is counted.
    for (const std::string level : {"<a x=\"/>\">", "<a x='</a>'>", "<a><!-- </a> -->", "<a\"><b y=\"\">"}) {
        std::string hidden;
        for (int i = 0; i < 70; ++i) hidden += level;
        m = parse_catch2_xml(hidden, "");
        REQUIRE_FALSE(m);
        CHECK_THAT(m.error().message, Catch::Contains("nested deeper than 64 levels"));
    }
    // Sections nested a few levels, with self-closing siblings by the thousand, are fine.
    std::string wide = "<Catch><Group><TestCase><Section><Section>";
    for (int i = 0; i < 5000; ++i) wide += "<OverallResult success=\"true\"/>";
    wide += "<BenchmarkResults name=\"b\" samples=\"3\"><mean value=\"2000\"/></BenchmarkResults>";
    wide += "</Section></Section></TestCase></Group></Catch>";
    m = parse_catch2_xml(wide, "b");
    REQUIRE(m);
    CHECK(*m->decode_tok_s == Approx(5e5));
    CHECK(m->generated_tokens == 3);
}

TEST_CASE("command adapter: user regexes over a real llama-bench console table", "[adapters][command]") {
    CommandPatterns p;
    p.decode_tok_s = R"(tg128 \|\s+([0-9.]+) ±)";
    p.prefill_tok_s = R"(pp512 \|\s+([0-9.]+) ±)";
    const auto m = parse_command_output(recorded(probe_fixture("llama-bench_rocm_gfx1151_lhl-strix-halo-testing.txt")), p);
    REQUIRE(m);
    REQUIRE(m->decode_samples.size() == 8);
    CHECK(m->decode_samples.front() == Approx(39.33));
    CHECK(m->prefill_samples.back() == Approx(1189.21));
    CommandPatterns bad;
    bad.decode_tok_s = "([0-9";
    CHECK_FALSE(parse_command_output("x", bad));
    CommandPatterns no_group;
    no_group.decode_tok_s = "tok/s";
    CHECK_FALSE(parse_command_output("1 tok/s", no_group));
}

TEST_CASE("command adapter: an optional version regex records the runtime's own provenance", "[adapters][command]") {
    // The lines perf/runtimes/transformers_bench.py prints.
    const std::string out =
        "perfgate-transformers-env torch=2.9.0+cu130 transformers=4.57.1 cuda=13.0 device=NVIDIA H200 dtype=bf16\n"
        "perfgate-transformers rep=1/1 prompt_tokens=512 generated_tokens=128 batch=1 prefill_ms=5 prefill_tok_s=1000.5 "
        "decode_ms=9 decode_tok_s=42.5 peak_memory_bytes=1\n";
    CommandPatterns p;
    p.decode_tok_s = "decode_tok_s=([0-9.]+)";
    p.version = "perfgate-transformers-env (torch=[^ ]+ transformers=[^ ]+)";
    const auto m = parse_command_output(out, p);
    REQUIRE(m);
    CHECK(m->facts.version == "torch=2.9.0+cu130 transformers=4.57.1");
    p.version = "no such line (x)";
    const auto none = parse_command_output(out, p);
    REQUIRE(none);
    CHECK(none->facts.version.empty());
    p.version = "transformers=[^ ]+";  // no group
    CHECK_FALSE(parse_command_output(out, p));
}

TEST_CASE("the lines an adapter searches are every line holding the key, each once, without its newline", "[adapters]") {
    using detail::lines_containing;
    CHECK(lines_containing("", "Decode:").empty());
    CHECK(lines_containing("nothing here\n", "Decode:").empty());
    const std::string text = "Decode: 1 ms\nother\nx Decode: 2 Decode: 3\r\nlast Decode:";
    const auto lines = lines_containing(text, "Decode:");
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "Decode: 1 ms");
    CHECK(lines[1] == "x Decode: 2 Decode: 3\r");  // a line holding the key twice comes once
    CHECK(lines[2] == "last Decode:");                // the last line needs no newline
    // The mlxcel profile's numbers are found on their lines in the middle of a long output.
    const std::string noise(1 << 20, 'x');
    const auto m = parse_mlxcel_profile(noise + "\nDecode: 10.0 ms (100.0 tok/s)\n" + noise);
    REQUIRE(m);
    CHECK(m->decode_tok_s == Approx(100.0));
    CHECK(m->decode_ms == Approx(10.0));
}
