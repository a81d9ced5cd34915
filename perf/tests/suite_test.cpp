#include <catch2/catch.hpp>

#include <filesystem>

#include "perfgate/perf/suite.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;

static std::string error_of(const std::string& text) {
    auto s = parse_suite(text, "suites/x.json", test::source() / "perf/suites");
    REQUIRE_FALSE(s);
    return s.error().message;
}

static const char* kMinimal = R"({
  "suite": "x",
  "backend": "cpu",
  "models": [{"name": "m", "checkpoint": "m.gguf", "weight_bytes": 1000}],
  "runtimes": [{"name": "r", "kind": "llama-bench", "binary": "llama-bench"}]
})";

TEST_CASE("the shipped suites load", "[suite]") {
    std::size_t shipped = 0;
    for (const auto& entry : std::filesystem::directory_iterator(test::source() / "perf/suites")) {
        if (entry.path().extension() != ".json") continue;
        INFO(entry.path().filename().string());
        auto s = load_suite(entry.path());
        REQUIRE(s);
        CHECK_FALSE(s->pairs.empty());
        ++shipped;
    }
    CHECK(shipped >= 9);  // cpu, cpu-instructions, cpu-serving, cuda, cuda-serving, metal, rocm, rocm-replay, rocm-serving
    auto cpu = load_suite(test::source() / "perf/suites/cpu.json");
    REQUIRE(cpu);
    CHECK(cpu->pairs.size() == 5);  // every runtime with every model when "pairs" is absent
    CHECK(cpu->find_model("llama-3.1-70b"));
    CHECK(cpu->find_runtime("llama-bench")->in_process_repetitions);
    auto replay = load_suite(test::source() / "perf/suites/rocm-replay.json");
    REQUIRE(replay);
    CHECK(replay->replay);
    CHECK(replay->results_suffix == "replay");
}

TEST_CASE("a minimal suite gets the documented defaults", "[suite]") {
    auto s = parse_suite(kMinimal, "x.json", "/base");
    REQUIRE(s);
    CHECK(s->workload.prompt_tokens == 512);
    CHECK(s->workload.generated_tokens == 128);
    CHECK(s->pairs.size() == 1);
    CHECK(s->models[0].checkpoint == "/base/m.gguf");
    CHECK(s->runtimes[0].binary == "llama-bench");  // bare names stay for the PATH lookup
}

TEST_CASE("manifest errors name the file and the line", "[suite]") {
    CHECK(error_of("{\n  \"suite\": \"x\",\n  oops\n}").rfind("suites/x.json:3: invalid JSON: syntax error", 0) == 0);
    CHECK(error_of(R"({
  "suite": "x",
  "backend": "cpu",
  "models": [{"name": "m", "checkpoint": "m.gguf"}],
  "runtimes": [
    {"name": "r", "kind": "llama-bench",
     "binary": "llama-bench", "flagz": ["-t"]}
  ]
})").rfind("suites/x.json:7: unknown key \"flagz\" in /runtimes/0 (allowed: name, kind, binary, args, flags,", 0) == 0);
    // A key given twice would let the second silently override the first.
    CHECK(error_of("{\n  \"suite\": \"x\",\n  \"suite\": \"y\"\n}").rfind("suites/x.json:3: key \"suite\" appears twice", 0) == 0);
    CHECK(error_of(R"({
  "suite": "x",
  "backend": "cpu",
  "models": [{"name": "m", "checkpoint": "m.gguf"}],
  "runtimes": [{"name": "r", "kind": "vllm", "binary": "v"}]
})") == "suites/x.json:5: unknown runtime kind \"vllm\" (llama-bench, llama-server, mlxcel, mlx-lm, catch2, command, openai-server)");
    CHECK(error_of(R"({
  "suite": "x",
  "backend": "cpu",
  "models": [{"name": "m", "checkpoint": "m.gguf"}],
  "runtimes": [{"name": "r", "kind": "llama-bench", "binary": "b"}],
  "pairs": [{"runtime": "r",
             "models": ["m", "n"]}]
})") == "suites/x.json:7: no model named \"n\"");
    CHECK(error_of(R"({
  "suite": "x",
  "backend": "gpu",
  "models": [{"name": "m", "checkpoint": "m.gguf"}],
  "runtimes": [{"name": "r", "kind": "llama-bench", "binary": "b"}]
})").rfind("suites/x.json:3: backend must be one of", 0) == 0);
    CHECK(error_of(R"({
  "suite": "x",
  "backend": "cpu",
  "workload": {"repetitions": 0},
  "models": [{"name": "m", "checkpoint": "m.gguf"}],
  "runtimes": [{"name": "r", "kind": "llama-bench", "binary": "b"}]
})") == "suites/x.json:4: \"repetitions\" must be an integer >= 1");
}

TEST_CASE("names that would escape a folder or break a test name are refused", "[suite]") {
    CHECK(is_safe_name("qwen3-0.6b"));
    CHECK(is_safe_name("Meta-Llama-3.1-8B-Instruct-4bit"));
    CHECK_FALSE(is_safe_name("../etc"));
    CHECK_FALSE(is_safe_name("a/b"));
    CHECK_FALSE(is_safe_name("a_b"));
    CHECK_FALSE(is_safe_name(".hidden"));
    CHECK_FALSE(is_safe_name(""));
    CHECK_THAT(error_of(R"({
  "suite": "x",
  "backend": "cpu",
  "models": [{"name": "../../x", "checkpoint": "m.gguf"}],
  "runtimes": [{"name": "r", "kind": "llama-bench", "binary": "b"}]
})"), Catch::StartsWith("suites/x.json:4: model name \"../../x\" must match"));
}

TEST_CASE("kinds without a default command line need args, command needs patterns", "[suite]") {
    CHECK_THAT(error_of(R"({"suite": "x", "backend": "cpu",
  "models": [{"name": "m", "checkpoint": "m"}],
  "runtimes": [{"name": "r", "kind": "command", "binary": "b", "args": ["x"]}]})"),
               Catch::Contains("needs \"patterns\""));
    CHECK_THAT(error_of(R"({"suite": "x", "backend": "cpu",
  "models": [{"name": "m", "checkpoint": "m"}],
  "runtimes": [{"name": "r", "kind": "mlx-lm", "binary": "b"}]})"),
               Catch::Contains("needs \"args\""));
}

namespace {
// A suite of `models` models and two runtimes whose "pairs" list every pair explicitly, one
// model per pair entry (the shape that made the reader quadratic: issue 26 item 17).
std::string explicit_pairs_suite(std::size_t models, bool repeat_last) {
    std::string m, p;
    for (std::size_t i = 0; i < models; ++i) {
        m += (i ? ",\n" : "") + std::string("{\"name\": \"m") + std::to_string(i) + "\", \"checkpoint\": \"m.gguf\", \"weight_bytes\": 1000}";
        for (const char* rt : {"a", "b"})
            p += (p.empty() ? "" : ",\n") + std::string("{\"runtime\": \"") + rt + "\", \"models\": [\"m" + std::to_string(i) + "\"]}";
    }
    if (repeat_last) p += ",\n{\"runtime\": \"b\", \"models\": [\"m" + std::to_string(models - 1) + "\"]}";
    return "{\"suite\": \"x\", \"backend\": \"cpu\",\n\"models\": [" + m +
           "],\n\"runtimes\": [{\"name\": \"a\", \"kind\": \"llama-bench\", \"binary\": \"llama-bench\"}, "
           "{\"name\": \"b\", \"kind\": \"llama-bench\", \"binary\": \"llama-bench\"}],\n\"pairs\": [" + p + "]}";
}
}  // namespace

TEST_CASE("explicit pairs: every listed pair is kept once, a repeat is named with its line", "[suite]") {
    auto s = parse_suite(explicit_pairs_suite(50, false), "x.json", "/base");
    REQUIRE(s);
    CHECK(s->pairs.size() == 100);
    CHECK(s->pairs.back().runtime == "b");
    CHECK(s->pairs.back().model == "m49");
    // Line 1 is the suite's head, then 50 model lines, the runtimes line and 100 pair lines: the
    // repeated pair is on line 153.
    const auto error = error_of(explicit_pairs_suite(50, true));
    CHECK_THAT(error, Catch::Contains("pair b/m49 is listed twice"));
    CHECK_THAT(error, Catch::StartsWith("suites/x.json:" + std::to_string(1 + 50 + 1 + 100 + 1) + ":"));
}

TEST_CASE("a suite of 200,000 explicit pairs", "[!benchmark][suite]") {
    const auto text = explicit_pairs_suite(100000, false);
    BENCHMARK("parse_suite, 200,000 pairs") { return parse_suite(text, "x.json", "/base")->pairs.size(); };
}

TEST_CASE("a sweep becomes one runtime per value, in its place, and a pair of its entry stands for every point",
          "[suite][sweep]") {
    auto s = load_suite(test::source() / "perf/tests/data/sweep-suite.json");
    REQUIRE(s);
    std::vector<std::string> names;
    for (const auto& rt : s->runtimes) names.push_back(rt.name);
    CHECK(names == std::vector<std::string>{"llama-bench-p32", "llama-bench-p128", "llama-bench-p512", "llama-server-c1",
                                            "llama-server-c2", "plain"});
    REQUIRE(s->pairs.size() == 9);
    CHECK(s->pairs[1].runtime == "llama-bench-p128");  // model by model, each with every point
    CHECK(s->pairs[1].model == "a");
    CHECK(s->pairs[3].runtime == "llama-bench-p32");
    CHECK(s->pairs[3].model == "b");
    CHECK(s->pairs[7].runtime == "llama-server-c2");
    const SuiteRuntime& p128 = *s->find_runtime("llama-bench-p128");
    REQUIRE(p128.sweep);
    CHECK(p128.sweep->entry == "llama-bench");
    CHECK(workload_of(*s, p128).prompt_tokens == 128);
    CHECK(workload_of(*s, p128).generated_tokens == 16);
    CHECK(s->workload.prompt_tokens == 64);  // the suite's own workload is untouched
    const SuiteRuntime& c2 = *s->find_runtime("llama-server-c2");
    CHECK(c2.serving.concurrency == 2);
    CHECK(c2.serving.requests == 4);
    CHECK(workload_of(*s, c2).prompt_tokens == 64);
    CHECK_FALSE(s->find_runtime("plain")->sweep);
    CHECK_FALSE(s->find_runtime("llama-bench"));  // the entry itself is not a runtime
}

TEST_CASE("a sweep that cannot be run as written is refused on its line", "[suite][sweep]") {
    const auto with_runtime = [](const std::string& runtime) {
        return std::string(R"({
  "suite": "x",
  "backend": "cpu",
  "models": [{"name": "m", "checkpoint": "m.gguf", "weight_bytes": 1000}],
  "runtimes": [
    {"name": "r-c4", "kind": "llama-bench", "binary": "llama-bench"},
    )") + runtime + "\n  ]\n}";
    };
    const auto refused = [&](const std::string& runtime) { return error_of(with_runtime(runtime)); };
    CHECK_THAT(refused(R"({"name": "s", "kind": "llama-bench", "binary": "b", "sweep": {"concurrency": [1, 2]}})"),
               Catch::StartsWith("suites/x.json:7:") && Catch::Contains("concurrency sweep is for a runtime with"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "llama-server", "binary": "b", "sweep": {"batch": [1, 2]}})"),
               Catch::Contains("batch is its concurrency"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "llama-bench", "binary": "b", "sweep": {"prompt_tokens": [64, 64]}})"),
               Catch::Contains("values must differ"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "llama-bench", "binary": "b", "sweep": {"prompt_tokens": []}})"),
               Catch::Contains("1 to 32 values"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "llama-bench", "binary": "b", "sweep": {"prompt_tokens": [0]}})"),
               Catch::Contains("expected an integer >= 1"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "llama-bench", "binary": "b", "sweep": {"context": [1]}})"),
               Catch::Contains("concurrency, prompt_tokens, generated_tokens or batch (got \"context\")"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "llama-bench", "binary": "b", "sweep": {"prompt_tokens": [1], "batch": [2]}})"),
               Catch::Contains("an object of one setting"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "llama-server", "binary": "b", "requests": 4, "sweep": {"concurrency": [1, 8]}})"),
               Catch::Contains("requests (4) must be at least the largest concurrency (8)"));
    CHECK_THAT(refused(R"({"name": "s", "kind": "llama-server", "binary": "b", "concurrency": 2, "requests": 8, "sweep": {"concurrency": [1, 4]}})"),
               Catch::Contains("declares no \"concurrency\" of its own"));
    // A point may not take another runtime's name: a concurrency sweep of "r" makes "r-c4".
    CHECK_THAT(refused(R"({"name": "r", "kind": "llama-server", "binary": "b", "requests": 4, "sweep": {"concurrency": [4]}})"),
               Catch::Contains("the sweep's point \"r-c4\" is the name of another runtime"));
    CHECK(parse_suite(with_runtime(R"({"name": "s", "kind": "llama-bench", "binary": "b", "sweep": {"batch": [1, 2]}})"),
                      "x.json", "/base"));
}
