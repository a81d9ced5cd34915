// Security: names that could leave the results folder or split a test name are refused by the
// suite loader and by the recorder, whatever the trick (../, an absolute path, NUL, a newline).
#include <catch2/catch.hpp>

#include "perfgate/perf/recorder.hpp"
#include "perfgate/perf/suite.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
using namespace std::string_literals;

namespace {

// A suite whose model name, runtime name or results suffix is `json_value` (already JSON-quoted).
std::string suite_with(const std::string& model, const std::string& runtime, const std::string& suffix) {
    return R"({
  "suite": "x",
  "backend": "cpu",
  "results_suffix": )" + suffix + R"(,
  "models": [{"name": )" + model + R"(, "checkpoint": "m.gguf", "weight_bytes": 1000}],
  "runtimes": [{"name": )" + runtime + R"(, "kind": "llama-bench", "binary": "llama-bench"}]
})";
}

// The tricks, as JSON string literals (the manifest is JSON, so NUL and newline come escaped).
const std::vector<std::string> kEscapes = {
    R"("../../etc/x")", R"("..")", R"("a/b")", R"("/etc/passwd")", R"("/tmp/x")", R"("a/../../b")", R"("a\u0000b")",
    R"("a\nb")", R"("a\rb")", R"("a b")", R"("a;b")", R"x("$(id)")x", R"("")", R"(".hidden")", R"("a\\b")"};

}  // namespace

TEST_CASE("the suite loader refuses model names, runtime names and suffixes that could escape", "[security][suite]") {
    const std::string ok = R"("ok-1")";
    auto good = parse_suite(suite_with(ok, ok, R"("replay")"), "suites/x.json", test::source() / "perf/suites");
    INFO((good ? "" : good.error().message));
    REQUIRE(good);
    for (const auto& bad : kEscapes) {
        INFO(bad);
        auto as_model = parse_suite(suite_with(bad, ok, R"("s")"), "suites/x.json", test::source() / "perf/suites");
        REQUIRE_FALSE(as_model);
        CHECK_THAT(as_model.error().message, Catch::StartsWith("suites/x.json:5: model name"));
        auto as_runtime = parse_suite(suite_with(ok, bad, R"("s")"), "suites/x.json", test::source() / "perf/suites");
        REQUIRE_FALSE(as_runtime);
        CHECK_THAT(as_runtime.error().message, Catch::StartsWith("suites/x.json:6: runtime name"));
        if (bad == R"("")") continue;  // an empty suffix means "none"
        auto as_suffix = parse_suite(suite_with(ok, ok, bad), "suites/x.json", test::source() / "perf/suites");
        REQUIRE_FALSE(as_suffix);
        CHECK_THAT(as_suffix.error().message, Catch::Contains("results_suffix"));
    }
}

TEST_CASE("the recorder refuses host tags and suffixes that could escape the results folder", "[security][recorder]") {
    const std::vector<std::string> tricks = {"../x", "..", "/etc/x", "/", "a/b", "a\0b"s, "a\nb", "a\rb", "a b", "a;b", "-"};
    for (const auto& t : tricks) {
        INFO("[" << t << "]");
        CHECK_FALSE(results_file("b", "rocm", t, "2026-09-30", ""));
        if (t != "-") CHECK_FALSE(results_file("b", "rocm", "h", "2026-09-30", t));
        CHECK_FALSE(results_file("b", t, "h", "2026-09-30", ""));
        CHECK_FALSE(results_file("b", "rocm", "h", t, ""));
    }
    // What is allowed stays inside the folder.
    auto f = results_file("b", "rocm", "h", "2026-09-30", "single_qwen3-0.6b");
    REQUIRE(f);
    CHECK(f->parent_path() == "b");
}
