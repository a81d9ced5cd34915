// perfgate export --format bmf: the JSON Bencher reads (report/export_bmf.hpp), checked against the
// published BMF schema (https://bencher.dev/bmf.json: an object of benchmarks, each an object of
// measures, each an object with a numeric "value" and optional numeric "lower_value" and
// "upper_value") and against the committed CPU history's own numbers. report/tests/data/bmf-example.json
// is ours, written to the documented format (bounds on some measures only, names with '/' and spaces),
// so that the check is seen to accept BMF before it is trusted to pass the export.
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/stats.hpp"
#include "perfgate/report/export_bmf.hpp"
#include "perfgate/test/files.hpp"
#include "perfgate/test/rows.hpp"

using namespace perfgate;
using namespace perfgate::report;
using perfgate::test::read_file;

namespace {

// What the BMF schema forbids, one line per violation (empty: valid).
std::vector<std::string> bmf_violations(const nlohmann::json& doc) {
    std::vector<std::string> out;
    if (!doc.is_object()) return {"the document is not an object"};
    for (const auto& [benchmark, measures] : doc.items()) {
        if (benchmark.empty()) out.push_back("a benchmark without a name");
        if (!measures.is_object()) {
            out.push_back(benchmark + ": not an object of measures");
            continue;
        }
        for (const auto& [measure, metric] : measures.items()) {
            const std::string where = benchmark + " / " + measure;
            if (measure.empty()) out.push_back(benchmark + ": a measure without a name");
            if (!metric.is_object()) {
                out.push_back(where + ": not an object");
                continue;
            }
            if (!metric.contains("value")) out.push_back(where + ": no value");
            for (const char* key : {"value", "lower_value", "upper_value"})
                if (metric.contains(key) && !metric[key].is_number()) out.push_back(where + ": " + key + " not a number");
        }
    }
    return out;
}

const std::string cpu_history = test::source_path("benchmarks/cpu_cpu-epyc_2026-11-29.csv").string();
const std::string first_run = "20261129T193504-32713";

}  // namespace

TEST_CASE("the BMF check accepts a BMF document and names what breaks the schema", "[export]") {
    const auto example = nlohmann::json::parse(read_file(test::source_path("report/tests/data/bmf-example.json").string()));
    CHECK(bmf_violations(example).empty());
    auto broken = example;
    broken["sorting/quicksort"]["latency"]["value"] = "1204.5";
    broken["cargo build --release"]["build-time"].erase("value");
    broken["lone"] = 3;
    const auto v = bmf_violations(broken);
    REQUIRE(v.size() == 3);
    CHECK(std::find(v.begin(), v.end(), "sorting/quicksort / latency: value not a number") != v.end());
    CHECK(std::find(v.begin(), v.end(), "cargo build --release / build-time: no value") != v.end());
    CHECK(std::find(v.begin(), v.end(), "lone: not an object of measures") != v.end());
}

TEST_CASE("a run of the committed CPU history exports as valid BMF with the run's own medians and extremes", "[export]") {
    auto text = export_bmf({{cpu_history}, first_run});
    REQUIRE(text);
    const auto doc = nlohmann::json::parse(*text);
    CHECK(bmf_violations(doc).empty());
    // Recomputed here from the file itself: the run's decode samples of one pair.
    auto file = read_results_csv(cpu_history);
    REQUIRE(file);
    std::vector<double> decode;
    for (const auto& r : file->rows)
        if (r.run_id == first_run && r.model == "qwen3-0.6b" && r.runtime == "llama-bench")
            for (double x : r.decode_samples()) decode.push_back(x);
    REQUIRE(decode.size() >= 2);
    const auto& m = doc.at("llama-bench/qwen3-0.6b").at("decode_tok_s");
    CHECK(m.at("value").get<double>() == Approx(median(decode)));
    CHECK(m.at("lower_value").get<double>() == Approx(*std::min_element(decode.begin(), decode.end())));
    CHECK(m.at("upper_value").get<double>() == Approx(*std::max_element(decode.begin(), decode.end())));
    CHECK(doc.at("llama-bench/qwen3-0.6b").contains("prefill_tok_s"));
    // Every pair of the run is there, and nothing of the other run changes the numbers.
    CHECK(doc.size() == 4);
    // Without --run-id the file's two runs would pool into one point, their change hidden: refused,
    // as the Conbench export refuses it (issue 49 item 5).
    auto both = export_bmf({{cpu_history}, std::nullopt});
    REQUIRE_FALSE(both);
    CHECK_THAT(both.error().message, Catch::Contains("rows of 2 runs") && Catch::Contains(first_run) &&
                                         Catch::Contains("--run-id") && Catch::Contains("cpu_cpu-epyc_2026-11-29.csv"));
}

TEST_CASE("export bmf refuses two pairs that would share one benchmark name", "[export]") {
    // runtime llama-bench with model x/y and runtime llama-bench/x with model y both read
    // "llama-bench/x/y": one would overwrite the other (issue 48 item 20).
    const auto dir = test::fresh_dir("perfgate-export-tests", "bmf-names");
    ResultRow a = test::make_row({.model = "x/y"});
    ResultRow b = test::make_row({.model = "y", .runtime = "llama-bench/x"});
    a.run_id = b.run_id = "20261129T000000-1";
    test::write_perfgate_csv(dir / "cpu_cpu-epyc_2026-11-29.csv", {a, b});
    auto clash = export_bmf({{(dir / "cpu_cpu-epyc_2026-11-29.csv").string()}, std::nullopt});
    REQUIRE_FALSE(clash);
    CHECK_THAT(clash.error().message, Catch::Contains("\"llama-bench/x/y\"") && Catch::Contains("runtime llama-bench/x"));
    // Apart, each exports under its name.
    test::write_perfgate_csv(dir / "cpu_cpu-epyc_2026-11-30.csv", {a});
    auto alone = export_bmf({{(dir / "cpu_cpu-epyc_2026-11-30.csv").string()}, std::nullopt});
    REQUIRE(alone);
    CHECK(nlohmann::json::parse(*alone).contains("llama-bench/x/y"));
}

TEST_CASE("export refuses what Bencher cannot take as one report, naming the file", "[export]") {
    auto unknown = export_bmf({{cpu_history}, std::string("no-such-run")});
    REQUIRE_FALSE(unknown);
    CHECK_THAT(unknown.error().message, Catch::Contains("cpu_cpu-epyc_2026-11-29.csv") && Catch::Contains("no-such-run"));
    const std::string h200 = test::source_path("benchmarks/cuda_h200_2026-11-29.csv").string();
    auto hosts = export_bmf({{cpu_history, h200}, std::nullopt});
    REQUIRE_FALSE(hosts);
    CHECK_THAT(hosts.error().message, Catch::Contains("2 hosts") && Catch::Contains("cpu-epyc") && Catch::Contains("h200"));
}
