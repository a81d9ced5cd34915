#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gate_test_support.hpp"
#include "perfgate/gates/host_thresholds.hpp"
#include "perfgate/gates/thresholds.hpp"

using namespace perfgate::gates;

TEST_CASE("the repository's thresholds/default.json is valid and sets decode and prefill", "[gates][thresholds]") {
    const std::string path = testing::thresholds_dir() + "/default.json";
    auto file = parse_threshold_file(testing::slurp(path), path);
    REQUIRE(file);
    ThresholdSet set;
    set.add_layer(*file);
    auto decode = set.lookup("decode_tok_s", "any-model", "mlxcel");
    auto prefill = set.lookup("prefill_tok_s", "any-model", "mlxcel");
    CHECK(decode.max_drop > 0);
    CHECK(decode.alpha > 0);
    CHECK(prefill.max_drop >= decode.max_drop);
    CHECK_THAT(decode.source, Catch::Contains("default.json:"));
}

TEST_CASE("host file overrides per metric and per model/runtime glob, later rules win", "[gates][thresholds]") {
    auto defaults = parse_threshold_file(R"({
  "metrics": {
    "decode_tok_s": { "max_drop": 0.05, "alpha": 0.05 },
    "*": { "max_drop": 0.2 }
  }
})", "default.json");
    REQUIRE(defaults);
    auto host = parse_threshold_file(R"({
  "metrics": { "decode_tok_s": { "noise": 0.02 } },
  "overrides": [
    { "model": "gpt-oss-*", "metric": "decode_tok_s", "max_drop": 0.10 },
    { "model": "gpt-oss-20b*", "runtime": "mlx-lm", "max_drop": 0.15 }
  ]
})", "m1ultra.json");
    REQUIRE(host);
    ThresholdSet set;
    set.add_layer(*defaults);
    set.add_layer(*host);

    auto plain = set.lookup("decode_tok_s", "Qwen3-0.6B-4bit", "mlxcel");
    CHECK(plain.max_drop == 0.05);
    CHECK(plain.noise == 0.02);
    CHECK(set.lookup("decode_tok_s", "gpt-oss-20b-MXFP4-Q4", "mlxcel").max_drop == 0.10);
    CHECK(set.lookup("decode_tok_s", "gpt-oss-20b-MXFP4-Q4", "mlx-lm").max_drop == 0.15);
    CHECK(set.lookup("prefill_tok_s", "gpt-oss-20b-MXFP4-Q4", "mlx-lm").max_drop == 0.15);
    CHECK(set.lookup("prefill_tok_s", "Qwen3-0.6B-4bit", "mlxcel").max_drop == 0.2);  // "*" metric
    CHECK(set.lookup("ttft_ms", "x", "y").max_drop == 0.2);                            // adapter metric
    CHECK_THAT(set.lookup("decode_tok_s", "gpt-oss-20b-x", "mlx-lm").source, Catch::Contains("m1ultra.json:5"));
}

TEST_CASE("invalid thresholds files are errors naming file and line", "[gates][thresholds]") {
    auto syntax = parse_threshold_file("{\n  \"metrics\": {\n    \"decode_tok_s\": { \"max_drop\": 0.05, }\n  }\n}\n",
                                       "thresholds/bad.json");
    REQUIRE_FALSE(syntax);
    CHECK_THAT(syntax.error().message, Catch::StartsWith("thresholds/bad.json:3:"));

    auto range = parse_threshold_file("{\n  \"metrics\": {\n    \"decode_tok_s\": {\n      \"max_drop\": 5\n    }\n  }\n}\n",
                                      "h.json");
    REQUIRE_FALSE(range);
    CHECK_THAT(range.error().message, Catch::StartsWith("h.json:4:") && Catch::Contains("max_drop"));

    auto unknown = parse_threshold_file("{\n  \"overrides\": [\n    {\"model\": \"x\", \"max_drop\": 0.1},\n"
                                        "    {\"modle\": \"y\", \"max_drop\": 0.1}\n  ]\n}\n",
                                        "h.json");
    REQUIRE_FALSE(unknown);
    CHECK_THAT(unknown.error().message, Catch::StartsWith("h.json:4:") && Catch::Contains("modle"));

    auto alpha = parse_threshold_file("{\"metrics\": {\"decode_tok_s\": {\"alpha\": 0}}}", "a.json");
    REQUIRE_FALSE(alpha);
    CHECK_THAT(alpha.error().message, Catch::Contains("alpha"));

    auto empty_rule = parse_threshold_file("{\n\"overrides\": [ {\"model\": \"x\"} ]\n}", "e.json");
    REQUIRE_FALSE(empty_rule);
    CHECK_THAT(empty_rule.error().message, Catch::StartsWith("e.json:2:"));

    auto bad_metric = parse_threshold_file("{\"metrics\": {\"Decode\": {\"max_drop\": 0.1}}}", "m.json");
    REQUIRE_FALSE(bad_metric);
}

TEST_CASE("memory_bandwidth is read with its line and bad values are errors naming file and line and a rewrite keeps it",
          "[gates][thresholds][bandwidth]") {
    const std::string good = "{\n  \"metrics\": {},\n  \"memory_bandwidth\": {\n    \"bytes_per_s\": 4.29e12,\n"
                             "    \"source\": \"device-to-device copy\",\n    \"date\": \"2026-12-01\"\n  }\n}\n";
    auto file = parse_threshold_file(good, "h.json");
    REQUIRE(file);
    REQUIRE(file->memory_bandwidth);
    CHECK(file->memory_bandwidth->bytes_per_s == Approx(4.29e12));
    CHECK(file->memory_bandwidth->source == "device-to-device copy");
    CHECK(file->memory_bandwidth->date == "2026-12-01");
    CHECK(file->memory_bandwidth->where == "h.json:3");

    auto absent = parse_threshold_file("{\"metrics\": {}}", "n.json");
    REQUIRE(absent);
    CHECK_FALSE(absent->memory_bandwidth);

    const auto bad = [](const std::string& body) {
        auto f = parse_threshold_file("{\n\"memory_bandwidth\": {\n" + body + "\n}\n}", "b.json");
        REQUIRE_FALSE(f);
        return f.error().message;
    };
    CHECK_THAT(bad("\"bytes_per_s\": -1, \"source\": \"x\", \"date\": \"2026-12-01\""),
               Catch::StartsWith("b.json:3:") && Catch::Contains("positive"));
    CHECK_THAT(bad("\"bytes_per_s\": 1e9, \"date\": \"2026-12-01\""), Catch::StartsWith("b.json:2:") && Catch::Contains("source"));
    CHECK_THAT(bad("\"bytes_per_s\": 1e9, \"source\": \"x\", \"date\": \"2026-13-01\""),
               Catch::StartsWith("b.json:3:") && Catch::Contains("YYYY-MM-DD"));
    CHECK_THAT(bad("\"bytes_per_s\": 1e9, \"source\": \"x\", \"date\": \"2026-12-01\", \"gbps\": 1"),
               Catch::StartsWith("b.json:3:") && Catch::Contains("gbps"));
    auto not_object = parse_threshold_file("{\n\"memory_bandwidth\": 4.29e12\n}", "o.json");
    REQUIRE_FALSE(not_object);
    CHECK_THAT(not_object.error().message, Catch::StartsWith("o.json:2:"));

    // A recalibration writes a new file; the measured bandwidth is carried into it.
    const auto rewritten = with_memory_bandwidth("{\"metrics\": {}, \"overrides\": []}", *file->memory_bandwidth);
    auto again = parse_threshold_file(rewritten, "r.json");
    REQUIRE(again);
    REQUIRE(again->memory_bandwidth);
    CHECK(again->memory_bandwidth->bytes_per_s == Approx(4.29e12));
    CHECK(again->memory_bandwidth->source == "device-to-device copy");
    // Whole bytes per second stay an integer, as the committed host files write them.
    CHECK_THAT(rewritten, Catch::Contains("\"bytes_per_s\": 4290000000000,"));
    MemoryBandwidth fractional = *file->memory_bandwidth;
    fractional.bytes_per_s = 1.5e9 + 0.25;
    CHECK_THAT(with_memory_bandwidth("{}", fractional), Catch::Contains("\"bytes_per_s\": 1500000000.25,"));
}

TEST_CASE("the probe's memory_headroom is a valid key of a host file, checked by the probe's rule",
          "[gates][thresholds][headroom]") {
    // docs/probes.md tells operators to put it in thresholds/<host>.json: the gate must not refuse it.
    auto with_headroom = parse_threshold_file("{\n  \"metrics\": {},\n  \"memory_headroom\": 0.8\n}\n", "h.json");
    CHECK(with_headroom);
    auto out_of_range = parse_threshold_file("{\n  \"metrics\": {},\n  \"memory_headroom\": 1.5\n}\n", "h.json");
    REQUIRE_FALSE(out_of_range);
    CHECK(out_of_range.error().message == "h.json:3: \"memory_headroom\" = 1.5 is outside (0, 1]");
}

TEST_CASE("a host's thresholds are read from the folder once, with the host file's memory bandwidth",
          "[gates][thresholds][host]") {
    const auto dir = std::filesystem::temp_directory_path() / ("perfgate-host-thresholds-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "default.json") << "{\"metrics\": {\"*\": {\"max_drop\": 0.07}}}";
    std::ofstream(dir / "h200.json") << "{\n\"overrides\": [{\"model\": \"m\", \"max_drop\": 0.2}],\n"
                                        "\"memory_headroom\": 0.9,\n"
                                        "\"memory_bandwidth\": {\"bytes_per_s\": 4.29e12, \"source\": \"copy\", \"date\": \"2026-12-01\"}\n}";
    auto h200 = load_host_thresholds(dir, "h200");
    REQUIRE(h200);
    CHECK(h200->set.lookup("decode_tok_s", "m", "r").max_drop == Approx(0.2));
    CHECK(h200->set.lookup("decode_tok_s", "other", "r").max_drop == Approx(0.07));
    REQUIRE(h200->memory_bandwidth);
    CHECK(h200->memory_bandwidth->where == (dir / "h200.json").string() + ":4");
    auto none = load_host_thresholds(dir, "gb10");
    REQUIRE(none);
    CHECK_FALSE(none->memory_bandwidth);
    auto escape = load_host_thresholds(dir, "../h200");
    REQUIRE_FALSE(escape);
    CHECK_THAT(escape.error().message, Catch::Contains("not a valid host tag"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("run_noise: a metric's own rule replaces its file's \"*\" prior, later files only widen, and their \"*\" "
          "does not widen a metric's own prior",
          "[gates][thresholds]") {
    auto defaults = parse_threshold_file(R"({
  "metrics": {
    "*": { "max_drop": 0.05, "alpha": 0.01, "run_noise": 0.05 },
    "decode_instructions_per_token": { "max_drop": 0.005, "run_noise": 0.001 }
  }
})", "default.json");
    REQUIRE(defaults);
    ThresholdSet set;
    set.add_layer(*defaults);
    CHECK(set.lookup("decode_instructions_per_token", "m", "r").run_noise == Approx(0.001));
    CHECK(set.lookup("decode_tok_s", "m", "r").run_noise == Approx(0.05));

    // A noisy host widens its rates' prior with "*", and one pair's counts with a rule of their own.
    auto host = parse_threshold_file(R"({
  "metrics": { "*": { "run_noise": 0.06 } },
  "overrides": [
    { "model": "wide", "metric": "decode_instructions_per_token", "run_noise": 0.004 },
    { "model": "narrow", "metric": "decode_instructions_per_token", "run_noise": 0.0005 }
  ]
})", "host.json");
    REQUIRE(host);
    set.add_layer(*host);
    CHECK(set.lookup("decode_tok_s", "m", "r").run_noise == Approx(0.06));
    CHECK(set.lookup("decode_instructions_per_token", "m", "r").run_noise == Approx(0.001));  // "*" says nothing of counts
    CHECK(set.lookup("decode_instructions_per_token", "wide", "r").run_noise == Approx(0.004));
    CHECK(set.lookup("decode_instructions_per_token", "narrow", "r").run_noise == Approx(0.001));  // never narrower
}
