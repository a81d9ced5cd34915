#include <catch2/catch.hpp>

#include "perfgate/runner/key_value.hpp"
#include "perfgate/runner/suite_run.hpp"

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
