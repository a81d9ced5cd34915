#include <catch2/catch.hpp>

#include "perfgate/runner/key_value.hpp"
#include "perfgate/runner/suite_run.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace perfgate::runner;

TEST_CASE("KEY=VALUE options: split at the first '=', errors name the option", "[runner]") {
    auto kv = split_key_value("llama-bench=/opt/a=b/llama-bench", "--binary", "RUNTIME=PATH");
    REQUIRE(kv);
    CHECK(kv->first == "llama-bench");
    CHECK(kv->second == "/opt/a=b/llama-bench");
    auto missing = split_key_value("llama-bench", "--binary", "RUNTIME=PATH");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message == "--binary wants RUNTIME=PATH, got \"llama-bench\"");
    CHECK_FALSE(split_key_value("=x", "--binary", "RUNTIME=PATH"));
}

TEST_CASE("pair selection: RUNTIME/MODEL", "[runner]") {
    auto pairs = parse_pair_selection({"llama-bench/tiny-llama-ci", "mlxcel/qwen3-0.6b"});
    REQUIRE(pairs);
    REQUIRE(pairs->size() == 2);
    CHECK((*pairs)[1].runtime == "mlxcel");
    CHECK((*pairs)[1].model == "qwen3-0.6b");
    CHECK_FALSE(parse_pair_selection({"tiny-llama-ci"}));
}

TEST_CASE("runtime pin: the embedded build's commit, release, build type and compiler fill the rows' runtime",
          "[runner]") {
    const auto pin = std::filesystem::temp_directory_path() / ("perfgate-pin-" + std::to_string(::getpid()) + ".json");
    {
        std::ofstream out(pin);
        out << R"({"runtime": "llama.cpp", "release": "v0.5.0", "commit": "de3ff815ea7d559ee917f063901b8986f038abc6",
                  "build_type": "Release, static, GGML_NATIVE=ON", "compiler": "GNU 12.2.0"})";
    }
    const std::string suite = std::string(PERFGATE_SOURCE_DIR) + "/perf/suites/cpu.json";
    auto loaded = load_suite_with_pins(suite, {"llama-bench=" + pin.string()});
    REQUIRE(loaded);
    const auto* rt = loaded->find_runtime("llama-bench");
    REQUIRE(rt);
    CHECK(rt->commit == "de3ff815ea7d559ee917f063901b8986f038abc6");
    CHECK(rt->version == "v0.5.0");
    CHECK(rt->build_type == "Release, static, GGML_NATIVE=ON");
    CHECK(rt->compiler == "GNU 12.2.0");
    // Without the pin nothing is claimed.
    auto bare = load_suite_with_pins(suite, {});
    REQUIRE(bare);
    CHECK(bare->find_runtime("llama-bench")->compiler.empty());
    auto unknown = load_suite_with_pins(suite, {"nope=" + pin.string()});
    CHECK_FALSE(unknown);
    std::filesystem::remove(pin);
}
