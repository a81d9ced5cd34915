// perfgate history's scan (history_scan.hpp): series per host, machine, pair and metric, the
// direction of a step in each metric's own sense, the run and commit after it, and which
// acknowledgements cover it.
#include <catch2/catch.hpp>

#include <algorithm>

#include "gate_test_support.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/gates/history_scan.hpp"

using namespace perfgate;
using namespace perfgate::gates;

namespace {

const std::string kMachineA = "a1a1a1a1a1a1a1a1";
const std::string kMachineB = "b2b2b2b2b2b2b2b2";
constexpr double kMiB = 1024.0 * 1024.0;

// Run `i` (day i + 1) of `machine`: decode `decode` tok/s (prefill 4x), peak memory `memory`.
ResultRow run_row(const std::string& machine, int i, double decode, double memory) {
    const double wobble[] = {1.002, 0.997, 1.004, 0.999, 1.001, 0.996, 1.003, 0.998};
    ResultRow r = testing::history_row(decode * wobble[i % 8], i + 1, fmt::format("{}{}", machine.substr(0, 1), i));
    r.machine_id = machine;
    r.peak_memory_bytes = memory * wobble[(i + 3) % 8];
    r.runtime_commit = fmt::format("c{:02}0ffee", i);
    return r;
}

// 16 runs per machine, one file a day. Machine A: decode 10% slower from run 8 (prefill with it).
// Machine B: decode (and prefill) 10% faster from run 8, peak memory 20% higher from run 8.
std::string write_history(const testing::TempDir& tmp) {
    for (int i = 0; i < 16; ++i) {
        const std::string file = tmp.sub(fmt::format("bench/cpu_cpu-epyc_2026-11-{:02}.csv", i + 1));
        const bool after = i >= 8;
        REQUIRE(append_results_locked(file, {run_row(kMachineA, i, after ? 54.0 : 60.0, 1000 * kMiB),
                                             run_row(kMachineB, i, after ? 77.0 : 70.0, (after ? 1200 : 1000) * kMiB)}));
    }
    return (tmp.path / "bench").string();
}

const HistoryStep& step_of(const HistoryScan& scan, const std::string& machine, const std::string& metric) {
    for (const auto& s : scan.steps)
        if (s.machine == machine && s.metric == metric) return s;
    FAIL("no step of " << machine << " " << metric);
    return scan.steps.front();
}

Acknowledgements acknowledging(const std::string& metric, const std::string& from, const std::string& machine = "") {
    const std::string m = machine.empty() ? "" : fmt::format("\"machine\": \"{}\", ", machine);
    auto parsed = parse_acknowledgements(
        fmt::format(R"({{"acknowledgements": [{{"host": "cpu-epyc", {}"runtime": "llama-bench", "model": "qwen3-0.6b",
                    "metric": "{}", "from": "{}", "why": "test"}}]}})",
                    m, metric, from),
        "acknowledgements.json");
    REQUIRE(parsed);
    return *parsed;
}

}  // namespace

TEST_CASE("history scan: a step per machine and metric, in the metric's own direction", "[history_scan]") {
    testing::TempDir tmp;
    const auto scan = scan_history(write_history(tmp), {}, {});
    REQUIRE(scan);
    CHECK(scan->hosts == 1);
    CHECK(scan->machines == 2);
    CHECK(scan->series == 6);  // 2 machines x 3 metrics
    CHECK(scan->tested == 6);
    REQUIRE(scan->steps.size() == 5);  // A decode and prefill; B decode, prefill and memory
    CHECK(scan->with_steps == 5);
    const auto& slower = step_of(*scan, kMachineA, "decode_tok_s");
    CHECK(slower.step.index == 8);
    CHECK(slower.step.change == Approx(-0.10).margin(0.01));
    CHECK(slower.worse);
    CHECK(slower.runs == 16);
    CHECK(slower.last_before.run == "a7");
    CHECK(slower.last_before.when == "2026-11-08T10:00:00Z");
    CHECK(slower.first_after.run == "a8");
    CHECK(slower.first_after.when == "2026-11-09T10:00:00Z");
    CHECK(slower.first_after.commit == "c080ffee");
    CHECK(step_of(*scan, kMachineA, "prefill_tok_s").worse);
    CHECK_FALSE(step_of(*scan, kMachineB, "decode_tok_s").worse);  // faster is better
    CHECK(step_of(*scan, kMachineB, "peak_memory_bytes").worse);   // more memory is worse
    CHECK(unacknowledged_worsening(*scan).size() == 3);
    const std::string text = render_history_text(*scan);
    CHECK_THAT(text, Catch::Contains("cpu-epyc llama-bench qwen3-0.6b decode_tok_s (machine a1a1a1a1a1a1a1a1, 16 runs)"));
    CHECK_THAT(text, Catch::Contains("step at run 9 of 16"));
    CHECK_THAT(text, Catch::Contains("\n5 step(s) in 5 series; no step in 1 series; 0 series too short"));
    CHECK_THAT(render_history_json(*scan), Catch::Contains("\"unacknowledged_worsening\": 3"));
    const std::string check = render_history_check(unacknowledged_worsening(*scan), "thresholds");
    CHECK_THAT(check, Catch::Contains("3 worsening step(s)"));
    CHECK_THAT(check, Catch::Contains(R"("machine":"a1a1a1a1a1a1a1a1")"));
    CHECK_THAT(check, Catch::Contains(R"("from":"2026-11-09T10:00:00Z")"));
}

TEST_CASE("history scan: an acknowledgement covers a step from after the last run before to the first run after",
          "[history_scan]") {
    testing::TempDir tmp;
    const std::string bench = write_history(tmp);
    auto covered = [&](const Acknowledgements& a) {
        auto scan = scan_history(bench, a, {});
        REQUIRE(scan);
        return !step_of(*scan, kMachineA, "decode_tok_s").acknowledged_by.empty();
    };
    CHECK(covered(acknowledging("decode_tok_s", "2026-11-09T10:00:00Z")));   // at the first run after
    CHECK(covered(acknowledging("decode_tok_s", "2026-11-09")));             // a date between the two runs
    CHECK(covered(acknowledging("decode_tok_s", "2026-11-08T10:00:01Z")));   // just after the last run before
    CHECK_FALSE(covered(acknowledging("decode_tok_s", "2026-11-08T10:00:00Z")));  // at the last run before
    CHECK_FALSE(covered(acknowledging("decode_tok_s", "2026-11-09T10:00:01Z")));  // after the first run after
    CHECK_FALSE(covered(acknowledging("prefill_tok_s", "2026-11-09")));          // another metric
    CHECK(covered(acknowledging("decode_tok_s", "2026-11-09", kMachineA)));
    CHECK_FALSE(covered(acknowledging("decode_tok_s", "2026-11-09", kMachineB)));  // another machine
}

TEST_CASE("history scan: a missing acknowledgements file is none, a bad one names its line, a missing folder is an error",
          "[history_scan]") {
    testing::TempDir tmp;
    auto none = read_acknowledgements(tmp.path.string());
    REQUIRE(none);
    CHECK(none->empty());
    testing::spit(tmp.sub("acknowledgements.json"), "{\"acknowledgements\": [\n  {\"host\": \"h200\"}]}\n");
    auto bad = read_acknowledgements(tmp.path.string());
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error().message, Catch::Contains("acknowledgements.json:2"));
    auto missing = scan_history((tmp.path / "no-such-folder").string(), {}, {});
    REQUIRE_FALSE(missing);
    CHECK_THAT(missing.error().message, Catch::Contains("no such folder of result CSVs"));
}

TEST_CASE("history scan: across many series, a step significant alone is set aside by Benjamini-Hochberg",
          "[history_scan]") {
    // Issue 45 item 4: each series is tested at alpha, so a folder of many unchanged series lists
    // about alpha of them as steps. Machine A has a small step whose p passes alpha alone; among 30
    // series (28 unchanged machines) it does not pass Benjamini-Hochberg, while machine B's 10% step does.
    const auto write = [](const testing::TempDir& tmp, int unchanged) {
        for (int i = 0; i < 16; ++i) {
            std::vector<ResultRow> rows{run_row(kMachineA, i, i >= 8 ? 59.6 : 60.0, 1000 * kMiB),
                                        run_row(kMachineB, i, i >= 8 ? 54.0 : 60.0, 1000 * kMiB)};
            for (int m = 0; m < unchanged; ++m) rows.push_back(run_row(fmt::format("c{:015}", m), (i + m) % 16, 60.0, 1000 * kMiB));
            REQUIRE(append_results_locked(tmp.sub(fmt::format("bench/cpu_cpu-epyc_2026-11-{:02}.csv", i + 1)), rows));
        }
        return (tmp.path / "bench").string();
    };
    testing::TempDir alone_dir, many_dir;
    const auto alone = scan_history(write(alone_dir, 0), {}, {});
    REQUIRE(alone);
    const auto& small = step_of(*alone, kMachineA, "decode_tok_s");
    INFO("machine A's step alone: p = " << small.step.p_value);
    REQUIRE(small.step.p_value <= 0.01);  // significant alone (2 decode series: BH at 2 series keeps it)
    REQUIRE(small.step.p_value > 2.0 / 90 * 0.01);  // beyond the second rank's bar among 90 series

    const auto many = scan_history(write(many_dir, 28), {}, {});
    REQUIRE(many);
    CHECK(many->tested == 90);  // 30 machines x 3 metrics
    CHECK(many->set_aside_by_fdr >= 1);
    CHECK(std::none_of(many->steps.begin(), many->steps.end(),
                       [](const HistoryStep& s) { return s.machine == kMachineA && s.metric == "decode_tok_s"; }));
    CHECK(step_of(*many, kMachineB, "decode_tok_s").step.change == Approx(-0.10).margin(0.01));
    CHECK_THAT(render_history_text(*many), Catch::Contains("set aside by Benjamini-Hochberg across the 90 tested series"));
}
