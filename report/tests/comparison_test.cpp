#include <catch2/catch.hpp>

#include "comparison.hpp"
#include "perfgate/test/rows.hpp"
#include "report_test_support.hpp"

using namespace perfgate;
using namespace perfgate::report;

namespace {

ResultRow row(const std::string& runtime, const std::string& model, double decode, const std::string& date = "2026-10-01") {
    return perfgate::test::make_row({.model = model, .runtime = runtime, .host = "cpu-test", .date = date,
                                     .prompt_tokens = 64, .prompt_target_len = 64, .generated_tokens = 32,
                                     .decode_tok_s = decode, .prefill_tok_s = decode * 10});
}

}  // namespace

TEST_CASE("parse_runtime_pair", "[report][comparison]") {
    auto p = parse_runtime_pair("mlxcel:mlx-lm");
    REQUIRE(p);
    CHECK(p->a == "mlxcel");
    CHECK(p->b == "mlx-lm");
    CHECK_FALSE(parse_runtime_pair("mlxcel"));
    CHECK_FALSE(parse_runtime_pair("a:a"));
    CHECK_FALSE(parse_runtime_pair(":b"));
    CHECK_FALSE(parse_runtime_pair("a:b:c"));
}

TEST_CASE("relative gate fails when one model's A decode is below min_ratio x B", "[report][comparison]") {
    testing::TempDir dir;
    const auto csv = dir.file("cpu_cpu-test_2026-10-01.csv");
    testing::write_perfgate_csv(csv, {row("llama-bench", "m1", 100), row("transformers", "m1", 100),
                                   row("llama-bench", "m2", 90), row("transformers", "m2", 100),
                                   row("llama-bench", "m3", 50), row("transformers", "m3", 0),
                                   row("llama-bench", "only-a", 10)});
    auto data = load_report_data({csv});
    REQUIRE(data);
    const RuntimePair pair{"llama-bench", "transformers"};

    auto strict = compare_runtimes(*data, pair, 0.95);
    CHECK(strict.compared() == 2);
    REQUIRE(strict.failing().size() == 1);
    CHECK(strict.failing()[0]->line->model == "m2");
    CHECK(strict.verdict() == RelativeGate::failed);
    REQUIRE(strict.decode);
    CHECK(strict.decode->median == Approx(0.95));
    // The zero-decode reference and the one-sided model are listed with a reason, not dropped.
    std::size_t listed = 0;
    for (const auto& m : strict.models)
        if (!m.decode_ratio) {
            ++listed;
            CHECK_FALSE(m.not_compared.empty());
        }
    CHECK(listed == 2);

    CHECK(compare_runtimes(*data, pair, 0.85).verdict() == RelativeGate::passed);
    CHECK(compare_runtimes(*data, pair, std::nullopt).verdict() == RelativeGate::none);
}

TEST_CASE("readings days apart are not compared, a gate with nothing compared is not a pass", "[report][comparison]") {
    testing::TempDir dir;
    const auto csv = dir.file("cpu_cpu-test_2026-10-05.csv");
    testing::write_perfgate_csv(csv, {row("a", "m1", 100, "2026-09-30"), row("b", "m1", 100, "2026-10-05")});
    auto data = load_report_data({csv});
    REQUIRE(data);
    auto c = compare_runtimes(*data, {"a", "b"}, 0.95);
    CHECK(c.compared() == 0);
    REQUIRE(c.models.size() == 1);
    CHECK(c.models[0].not_compared.find("days apart") != std::string::npos);
    CHECK(c.verdict() == RelativeGate::undecided);
    // Across a month boundary, one calendar day apart still compares.
    testing::write_perfgate_csv(csv, {row("a", "m1", 100, "2026-09-30"), row("b", "m1", 100, "2026-10-01")});
    auto data2 = load_report_data({csv});
    CHECK(compare_runtimes(*data2, {"a", "b"}, 0.95).compared() == 1);
}
