// vLLM's and SGLang's serving result files read as rows (perf/tests/data/serving-results/, written
// by us in the shape of each tool's output: README there).
#include <catch2/catch.hpp>

#include "perfgate/perf/result_files.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;
using namespace perfgate::perf;
namespace fs = std::filesystem;

namespace {
std::string fixture(const std::string& name) {
    return test::source_path("perf/tests/data/serving-results/" + name).string();
}

std::string read_error(const fs::path& path) {
    auto read = read_result_file(path.string(), "h");
    REQUIRE_FALSE(read);
    return read.error().message;
}
}  // namespace

TEST_CASE("serving results: vllm bench serve --save-result is one run of its model and concurrency", "[serving-results]") {
    auto read = read_result_file(fixture("vllm-serve-base.json"), "h200");
    REQUIRE(read);
    CHECK(read->format == ResultFileFormat::vllm_bench_serve);
    REQUIRE(read->rows.size() == 1);
    const auto& r = read->rows[0];
    CHECK(r.runtime == "vllm");
    CHECK(r.host == "h200");
    CHECK(r.model == "Llama-3.1-8B-Instruct");
    CHECK(r.batch == 16);
    CHECK(r.date == "2026-12-03");
    CHECK(r.timestamp == "2026-12-03T14:15:02");
    CHECK(r.prompt_tokens == 1024);
    CHECK(r.generated_tokens == 128);
    CHECK(r.status.ok());
    CHECK(r.serving_output_tok_s == Approx(1287.4));
    CHECK(r.serving_request_s == Approx(1287.4 / 128).epsilon(1e-3));
    CHECK(r.ttft_p50_ms == Approx(61.84));
    CHECK(r.ttft_p99_ms == Approx(61.84 * 1.9).epsilon(1e-4));
    CHECK(r.tpot_p50_ms == Approx(11.92));
    CHECK(r.itl_p50_ms == Approx(11.47));
    CHECK(r.itl_p99_ms == Approx(11.47 * 3.4).epsilon(1e-4));
    CHECK(r.flags == "backend=openai");
    CHECK(r.source_line == 1);
}

TEST_CASE("serving results: the older benchmark_serving.py file, and a run with failed requests", "[serving-results]") {
    auto old = read_result_file(fixture("vllm-serve-v0.8.json"), "h");
    REQUIRE(old);
    REQUIRE(old->rows.size() == 1);
    // A finite request rate is part of the workload, so of the pair; no max_concurrency, no batch.
    CHECK(old->rows[0].model == "Llama-3.1-8B-Instruct [request_rate=8]");
    CHECK_FALSE(old->rows[0].batch);
    CHECK(old->rows[0].status.ok());  // no `failed` key in that version: nothing says any failed
    CHECK(old->rows[0].itl_p50_ms == Approx(12.0));

    auto failed = read_result_file(fixture("vllm-serve-failed.json"), "h");
    REQUIRE(failed);
    // Seven of 200 failed: the figures of the rest would look faster, so the run is a failure.
    CHECK(failed->rows[0].status.text == "FAIL:requests");
}

TEST_CASE("serving results: SGLang's bench_serving JSON lines, one run a line, with Python's NaN and Infinity", "[serving-results]") {
    auto read = read_result_file(fixture("sglang-bench-serving.jsonl"), "h");
    REQUIRE(read);
    CHECK(read->format == ResultFileFormat::sglang_bench_serving);
    REQUIRE(read->rows.size() == 2);
    for (const auto& r : read->rows) {
        CHECK(r.runtime == "sglang");
        CHECK(r.model == "Qwen3-8B");  // server_info's model_path; the unbounded rate adds nothing
        CHECK(r.batch == 8);
        CHECK(r.prompt_tokens == 512);
        CHECK(r.generated_tokens == 64);
        CHECK(r.status.ok());
        CHECK(r.flags == "backend=sglang dataset=random");
    }
    CHECK(read->rows[0].run_id != read->rows[1].run_id);
    CHECK(read->rows[1].source_line == 2);
    CHECK(read->rows[0].itl_p50_ms == Approx(9.12));
    CHECK(read->rows[1].tpot_p99_ms == Approx(9.42 * 2.2).epsilon(1e-4));

    // Every request failed: SGLang writes NaN latencies and no failed count; none completed is a failure.
    auto all_failed = read_result_file(fixture("sglang-bench-serving-all-failed.jsonl"), "h");
    REQUIRE(all_failed);
    REQUIRE(all_failed->rows.size() == 1);
    CHECK(all_failed->rows[0].status.text == "FAIL:requests");
}

TEST_CASE("serving results: bad input names the file and line", "[serving-results]") {
    const auto dir = test::fresh_dir("perfgate-perf-tests", "serving-results-bad");
    const auto sglang = test::read_file(fixture("sglang-bench-serving.jsonl"));
    test::write_file(dir / "array.jsonl", sglang + "[1, 2]\n");
    CHECK_THAT(read_error(dir / "array.jsonl"), Catch::Contains("array.jsonl:3: bench_serving: a run must be one JSON object"));

    test::write_file(dir / "cut.jsonl", sglang + sglang.substr(0, 300) + "\n");
    CHECK_THAT(read_error(dir / "cut.jsonl"), Catch::Contains("cut.jsonl:3: invalid JSON"));

    auto line = sglang.substr(0, sglang.find('\n'));
    auto negative = line;
    negative.replace(negative.find("\"median_itl_ms\": 9.12"), 21, "\"median_itl_ms\": -9.12");
    test::write_file(dir / "negative.jsonl", sglang + negative + "\n");
    CHECK_THAT(read_error(dir / "negative.jsonl"), Catch::Contains("negative.jsonl:3") && Catch::Contains("median_itl_ms"));

    auto vllm = test::read_file(fixture("vllm-serve-base.json"));
    auto no_throughput = vllm;
    no_throughput.replace(no_throughput.find("\"output_throughput\""), 19, "\"output_rate\"");
    test::write_file(dir / "no-throughput.json", no_throughput);
    CHECK_THAT(read_error(dir / "no-throughput.json"), Catch::Contains("no-throughput.json:1: a run without output_throughput"));

    auto bad_date = vllm;
    bad_date.replace(bad_date.find("20261203-141502"), 15, "2026-12-03 14:15");
    test::write_file(dir / "bad-date.json", bad_date);
    CHECK_THAT(read_error(dir / "bad-date.json"), Catch::Contains("bad-date.json:1") && Catch::Contains("is not YYYYMMDD-HHMMSS"));

    // Issue 48 items 15-16: a completed run's NaN or infinite throughput or TTFT, a time of day
    // 99:61:99, a token total that overflowed when rounded.
    for (const char* token : {"NaN", "Infinity"}) {
        auto nan = vllm;
        const auto at = nan.find("\"output_throughput\": ") + 21;
        nan.replace(at, nan.find_first_of(",}", at) - at, token);
        test::write_file(dir / "nan.json", nan);
        CHECK_THAT(read_error(dir / "nan.json"), Catch::Contains("nan.json:1") && Catch::Contains("output_throughput") &&
                                                       Catch::Contains("requests all completed"));
        auto ttft = vllm;
        const auto t = ttft.find("\"median_ttft_ms\": ") + 18;
        ttft.replace(t, ttft.find_first_of(",}", t) - t, token);
        test::write_file(dir / "ttft.json", ttft);
        CHECK_THAT(read_error(dir / "ttft.json"), Catch::Contains("median_ttft_ms"));
    }
    auto late = vllm;
    late.replace(late.find("20261203-141502"), 15, "20261204-996199");
    test::write_file(dir / "late.json", late);
    CHECK_THAT(read_error(dir / "late.json"), Catch::Contains("late.json:1") && Catch::Contains("no time of day"));
    for (const char* dashes : {"20261201---0000", "20261201--10000"}) {  // '-' where the time's digits go
        auto odd = vllm;
        odd.replace(odd.find("20261203-141502"), 15, dashes);
        test::write_file(dir / "dashes.json", odd);
        CHECK_THAT(read_error(dir / "dashes.json"), Catch::Contains("dashes.json:1") && Catch::Contains("YYYYMMDD-HHMMSS"));
    }

    auto huge = vllm;
    const auto in = huge.find("\"total_input_tokens\": ") + 22;
    huge.replace(in, huge.find_first_of(",}", in) - in, "9223372036854775807");
    test::write_file(dir / "huge.json", huge);
    auto read = read_result_file((dir / "huge.json").string(), "h");
    REQUIRE(read);
    REQUIRE(read->rows[0].prompt_tokens);
    CHECK(*read->rows[0].prompt_tokens > 0);
}

TEST_CASE("serving results: NaN inside a string stays text, a pretty-printed vLLM object is one run", "[serving-results]") {
    const auto dir = test::fresh_dir("perfgate-perf-tests", "serving-results-text");
    auto line = test::read_file(fixture("sglang-bench-serving.jsonl"));
    line = line.substr(0, line.find('\n'));
    line.replace(line.find("\"tag\": null"), 11, "\"tag\": \"NaN Infinity\"");
    line.replace(line.find("\"model_path\": \"Qwen/Qwen3-8B\""), 29, "\"other\": \"x\"");
    test::write_file(dir / "tagged.jsonl", line + "\n");
    auto tagged = read_result_file((dir / "tagged.jsonl").string(), "h");
    REQUIRE(tagged);
    CHECK(tagged->rows[0].model == "NaN Infinity");  // no model_path: the tag names the run

    auto vllm = test::read_file(fixture("vllm-serve-base.json"));
    std::string pretty;
    for (char c : vllm) {
        pretty += c;
        if (c == ',') pretty += "\n  ";
    }
    test::write_file(dir / "pretty.json", pretty);
    auto read = read_result_file((dir / "pretty.json").string(), "h");
    REQUIRE(read);
    CHECK(read->format == ResultFileFormat::vllm_bench_serve);
    REQUIRE(read->rows.size() == 1);
    CHECK(read->rows[0].itl_p50_ms == Approx(11.47));
}
