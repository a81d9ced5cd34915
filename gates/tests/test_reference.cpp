// The reference level (docs/gate.md, "Reference"): the median of the first runs of the pair's
// current segment, moved only by an acknowledgement or a sustained improvement; and the
// acknowledgements file that moves it.
#include <catch2/catch.hpp>

#include <cmath>

#include "gate_test_support.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/gates/acknowledgements.hpp"
#include "perfgate/gates/decision.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/reference.hpp"
#include "perfgate/gates/render.hpp"

using namespace perfgate;
using namespace perfgate::gates;

namespace {

// Ten quiet runs about 100 (spread about 0.6%), one a day from 2026-11-01, then `after`.
std::vector<RunLevel> runs(const std::vector<double>& after = {}) {
    static const double z[] = {0.3, -1.1, 0.8, -0.2, 1.4, -0.7, 0.1, -1.5, 0.9, -0.4};
    std::vector<double> values;
    for (double x : z) values.push_back(100.0 * std::exp(0.006 * x));
    values.insert(values.end(), after.begin(), after.end());
    std::vector<RunLevel> out;
    for (std::size_t i = 0; i < values.size(); ++i)
        out.push_back({fmt::format("r{}", i), fmt::format("2026-11-{:02}T00:00:00Z", i + 1), values[i], 1});
    return out;
}

Threshold floor5() {
    Threshold t;
    t.max_drop = 0.05;
    t.alpha = 0.01;
    t.run_noise = 0.05;
    t.source = "test";
    return t;
}

MetricCheck judge(const std::vector<RunLevel>& history, const Reference& ref, double now,
                  const std::string& metric = "decode_tok_s") {
    return decide_metric_history(metric, history, ref, {}, {now}, 1, floor5(), StatTest::welch_t, {});
}

Reference plain(const std::vector<RunLevel>& history, const std::string& metric = "decode_tok_s") {
    return find_reference(history, {}, perfgate::metric(metric), 0.05, {});
}

Acknowledgement ack(const std::string& from, std::optional<double> level = std::nullopt) {
    Acknowledgement a;
    a.host = "cpu-epyc";
    a.runtime = "llama-bench";
    a.model = "qwen3-0.6b";
    a.metric = "decode_tok_s";
    a.from = from;
    a.level = level;
    a.why = "accepted in review";
    a.source = "acknowledgements.json:3";
    return a;
}

}  // namespace

TEST_CASE("reference: the median of the first runs, not the latest run", "[reference]") {
    const auto h = runs();
    const Reference r = plain(h);
    CHECK(r.first == 0);
    CHECK(r.count == 5);
    CHECK(r.starts == std::vector<std::size_t>{0});
    CHECK(r.moved.empty());
    const auto c = judge(h, r, 100);
    CHECK(c.reference_runs == 5);
    CHECK(c.baseline_samples.size() == 5);
    CHECK_THAT(c.reference, Catch::Contains("median of 5 runs from r0 to r4"));
    // A median of five runs is steadier than one run: a smaller MDE than against the latest run.
    HistoryRule latest;
    latest.reference.runs = 1;
    const auto one = decide_metric_history("decode_tok_s", h, find_reference(h, {}, perfgate::metric("decode_tok_s"),
                                                                             0.05, latest.reference),
                                           {}, {100}, 1, floor5(), StatTest::welch_t, latest);
    CHECK(*c.min_detectable_effect < *one.min_detectable_effect);
}

TEST_CASE("reference: a slowdown merged in 3% steps adds up instead of passing step by step", "[reference]") {
    // Each step alone is inside the 5% floor; each was recorded on main as a green run.
    std::vector<double> steps;
    std::vector<Verdict> against_reference, against_latest;
    double level = 100;
    for (int k = 0; k < 4; ++k) {
        level *= 0.97;
        const auto h = runs(steps);
        against_reference.push_back(judge(h, plain(h), level).verdict);
        HistoryRule latest;
        latest.reference.runs = 1;
        // The old rule: the latest run was the baseline.
        Reference last;
        last.starts = {0};
        last.first = h.size() - 1;
        last.count = 1;
        against_latest.push_back(
            decide_metric_history("decode_tok_s", h, last, {}, {level}, 1, floor5(), StatTest::welch_t, latest).verdict);
        steps.push_back(level);
    }
    CHECK(testing::quiet(against_reference[0]));  // -3%: inside the floor, passes
    CHECK(against_reference[1] == Verdict::regressed);  // -5.9% from the reference
    CHECK(against_reference[3] == Verdict::regressed);  // -11.5%
    for (Verdict v : against_latest) CHECK(testing::quiet(v));  // what passed forever before
}

TEST_CASE("reference: a slowdown never moves it, a sustained improvement does", "[reference]") {
    // Three runs 8% slower stay slower: the reference is still the first runs'.
    auto slow = runs({92, 92.3, 91.8});
    auto r = plain(slow);
    CHECK(r.first == 0);
    CHECK(judge(slow, r, 92).verdict == Verdict::regressed);

    // Three runs 12% faster: the reference moves up to them, so giving the gain back is a regression.
    auto fast = runs({112, 112.4, 111.8});
    r = plain(fast);
    CHECK(r.starts == std::vector<std::size_t>{0, 10});
    CHECK(r.first == 10);
    CHECK(r.count == 3);
    CHECK_THAT(r.moved, Catch::Contains("sustained improvement") && Catch::Contains("since r10"));
    const auto back = judge(fast, r, 100);
    CHECK(back.verdict == Verdict::regressed);
    // The step between the segments is not noise: the spread stays the quiet runs' spread.
    REQUIRE(back.run_noise);
    CHECK(*back.run_noise < 0.012);

    // Two improved runs are not yet sustained; nor are three when one of them is not beyond the floor.
    CHECK(plain(runs({112, 112.4})).first == 0);
    CHECK(plain(runs({112, 103, 112})).first == 0);
}

TEST_CASE("reference: lower-is-better metrics improve downwards", "[reference]") {
    auto mem = runs({85, 84.6, 85.2});  // peak memory 15% lower, three runs in a row
    const Reference r = plain(mem, "peak_memory_bytes");
    CHECK(r.first == 10);
    auto up = runs({115, 115.5, 114.8});  // 15% more memory: never moves it
    CHECK(plain(up, "peak_memory_bytes").first == 0);
}

TEST_CASE("reference: an acknowledgement starts a segment at its first run", "[reference]") {
    const auto h = runs({91, 91.4, 90.7});  // an accepted 9% slowdown from r10 on
    const Acknowledgement a = ack("2026-11-11");
    const auto starts = acknowledged_starts(h, {&a}, "2026-11-20T00:00:00Z");
    REQUIRE(starts.size() == 1);
    CHECK(starts[0].at == 10);
    CHECK_THAT(starts[0].why, Catch::Contains("acknowledged from 2026-11-11") && Catch::Contains("accepted in review"));
    const Reference r = find_reference(h, starts, perfgate::metric("decode_tok_s"), 0.05, {});
    CHECK(r.first == 10);
    CHECK(r.count == 3);
    const auto c = judge(h, r, 91);
    CHECK(c.verdict == Verdict::unchanged);
    CHECK_THAT(c.reference, Catch::Contains("acknowledged from 2026-11-11"));
    // After the acknowledged step the MDE is about what it was before it (the step is not noise).
    const auto before = judge(runs(), plain(runs()), 100);
    CHECK(*c.min_detectable_effect < 1.5 * *before.min_detectable_effect);
    // Without the entry the same run is a regression.
    CHECK(judge(h, plain(h), 91).verdict == Verdict::regressed);

    // An entry the current run has not reached yet does nothing.
    CHECK(acknowledged_starts(h, {&a}, "2026-11-10T12:00:00Z").empty());
}

TEST_CASE("reference: the first run after an acknowledgement", "[reference]") {
    const auto h = runs();
    const Acknowledgement bare = ack("2026-11-20"), with_level = ack("2026-11-20", 90.0);
    auto r = find_reference(h, acknowledged_starts(h, {&bare}, "2026-11-21T00:00:00Z"), perfgate::metric("decode_tok_s"),
                            0.05, {});
    CHECK(r.count == 0);
    auto c = judge(h, r, 90.5);
    CHECK(c.verdict == Verdict::new_pair);
    CHECK_THAT(c.reason, Catch::Contains("first run at the new level"));
    // With a level the entry names, the run is judged against it.
    r = find_reference(h, acknowledged_starts(h, {&with_level}, "2026-11-21T00:00:00Z"), perfgate::metric("decode_tok_s"),
                       0.05, {});
    c = judge(h, r, 80);
    CHECK(c.baseline_value == Approx(90.0));
    CHECK(c.verdict == Verdict::regressed);
}

TEST_CASE("acknowledgements file: entries and errors with file and line", "[reference][acknowledgements]") {
    const std::string good = R"({"acknowledgements": [
  {"host": "h200", "runtime": "llama-bench", "model": "llama-3.1-8b", "metric": "decode_tok_s",
   "from": "2026-12-02T10:15:00Z", "level": 331.2, "commit": "4f2a9c1", "why": "fp8 KV cache"},
  {"host": "h200", "machine": "94871a9b7fc4673e", "runtime": "llama-bench", "model": "llama-3.1-8b",
   "metric": "decode_tok_s", "from": "2026-11-30", "why": "driver update on this machine"}
]})";
    auto a = parse_acknowledgements(good, "acknowledgements.json");
    REQUIRE(a);
    CHECK(a->size() == 2);
    auto on_d = a->of({"h200", "94871a9b7fc4673e", "llama-bench", "llama-3.1-8b", "decode_tok_s"});
    REQUIRE(on_d.size() == 2);
    CHECK(on_d[0]->from == "2026-11-30");  // oldest first
    CHECK(on_d[1]->source == "acknowledgements.json:2");
    CHECK(a->of({"h200", "889d669b5533d931", "llama-bench", "llama-3.1-8b", "decode_tok_s"}).size() == 1);
    CHECK(a->of({"h200", "", "llama-bench", "llama-3.1-8b", "prefill_tok_s"}).empty());

    const auto error_of = [](const std::string& text) {
        auto r = parse_acknowledgements(text, "acknowledgements.json");
        REQUIRE_FALSE(r);
        return r.error().message;
    };
    const std::string head = "{\"acknowledgements\": [\n";
    const std::string pair = R"("host": "h200", "runtime": "llama-bench", "model": "m", )";
    CHECK_THAT(error_of(head + "{" + pair + R"("metric": "tok_s", "from": "2026-12-02", "why": "x"}]})"),
               Catch::Contains("acknowledgements.json:2") && Catch::Contains("not a registered metric"));
    CHECK_THAT(error_of(head + "{" + pair + R"("metric": "decode_tok_s", "from": "2 Dec", "why": "x"}]})"),
               Catch::Contains("acknowledgements.json:2") && Catch::Contains("\"from\""));
    CHECK_THAT(error_of(head + "{" + pair + R"("metric": "decode_tok_s", "from": "2026-12-02"}]})"),
               Catch::Contains("acknowledgements.json:2") && Catch::Contains("why"));
    CHECK_THAT(error_of(head + "{" + pair + R"("metric": "decode_tok_s", "from": "2026-12-02", "why": "x", "levle": 3}]})"),
               Catch::Contains("unknown key \"levle\""));
    CHECK_THAT(error_of(head + "{" + pair + R"("metric": "decode_tok_s", "from": "2026-12-02", "why": "x", "level": -1}]})"),
               Catch::Contains("positive"));
    CHECK_THAT(error_of("{\"acknowledgements\": {}}"), Catch::Contains("array"));
}

TEST_CASE("gate: creep on main fails, and an acknowledgement in thresholds/ accepts it", "[reference][gates]") {
    testing::TempDir tmp;
    // Ten quiet runs, then two merges of -3% each, all recorded like main records them.
    std::vector<double> levels;
    for (const auto& r : runs()) levels.push_back(r.value * 0.6);  // about 60 tok/s
    levels.push_back(60 * 0.97);
    levels.push_back(60 * 0.97 * 0.97);
    for (std::size_t i = 0; i < levels.size(); ++i)
        REQUIRE(append_results_locked(tmp.sub(fmt::format("bench/cpu_cpu-epyc_2026-11-{:02}.csv", i + 1)),
                                      {testing::history_row(levels[i], static_cast<int>(i + 1), fmt::format("h{}", i))}));
    std::filesystem::create_directories(tmp.path / "thresholds");
    testing::spit(tmp.sub("thresholds/default.json"), testing::slurp(testing::thresholds_dir() + "/default.json"));
    GateOptions o;
    o.benchmarks_dir = (tmp.path / "bench").string();
    o.thresholds_dir = (tmp.path / "thresholds").string();
    o.report_missing = false;
    const double now = 60 * 0.97 * 0.97 * 0.97;  // the third -3% merge: -8.7% from where it began
    const auto decode_of = [](const GateReport& r) {
        REQUIRE(r.pairs.size() == 1);
        for (const auto& m : r.pairs.front().metrics)
            if (m.metric == "decode_tok_s") return m;
        FAIL("no decode");
        return MetricCheck{};
    };
    auto before = gate_rows({testing::history_row(now, 20, "now")}, o);
    REQUIRE(before);
    INFO(render_text(*before));
    CHECK(decode_of(*before).verdict == Verdict::regressed);
    CHECK_FALSE(passed(*before));

    // Accepted in review from the first slower run on: now judged against the runs since then.
    testing::spit(tmp.sub("thresholds/acknowledgements.json"), R"({"acknowledgements": [
  {"host": "cpu-epyc", "runtime": "llama-bench", "model": "qwen3-0.6b", "metric": "decode_tok_s",
   "from": "2026-11-11", "why": "smaller KV blocks, accepted in PR 7"}]})");
    auto after = gate_rows({testing::history_row(now, 20, "now")}, o);
    REQUIRE(after);
    INFO(render_text(*after));
    const auto decode = decode_of(*after);
    CHECK(testing::quiet(decode.verdict));
    CHECK(decode.reference_runs == 2);
    CHECK_THAT(decode.reference, Catch::Contains("smaller KV blocks"));
    bool noted = false;
    for (const auto& n : after->notes) noted = noted || n.find("1 acknowledged change from") != std::string::npos;
    CHECK(noted);

    // A broken file is an error naming it, never ignored.
    testing::spit(tmp.sub("thresholds/acknowledgements.json"), "{\"acknowledgements\": [\n{\"host\": 1}]}");
    auto broken = gate_rows({testing::history_row(now, 20, "now")}, o);
    REQUIRE_FALSE(broken);
    CHECK_THAT(broken.error().message, Catch::Contains("acknowledgements.json:2"));
}
