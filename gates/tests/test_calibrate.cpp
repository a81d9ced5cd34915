// perfgate calibrate's statistics (gates/calibrate.hpp) and adaptive repetitions (gates/adaptive.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "gate_test_support.hpp"
#include "perfgate/core/csv.hpp"
#include "adaptive.hpp"
#include "perfgate/gates/calibrate.hpp"
#include "perfgate/gates/noise_model.hpp"
#include "perfgate/gates/decision.hpp"
#include "perfgate/gates/gate.hpp"

using namespace perfgate;
using namespace perfgate::gates;
using testing::TempDir;

namespace {

Threshold base_threshold() {
    Threshold t;
    t.max_drop = 0.05;
    t.alpha = 0.05;
    return t;
}

std::vector<double> normal_readings(std::mt19937& rng, double center, double sigma, std::size_t n) {
    std::normal_distribution<double> d(center, center * sigma);
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(std::max(d(rng), center * 0.01));
    return v;
}

ResultRow make_row(double decode, std::vector<double> samples, const std::string& date) {
    ResultRow r;
    r.model = "tiny-llama-ci";
    r.runtime = "llama-bench";
    r.backend = "cpu";
    r.host = "ci-calib";
    r.prompt_tokens = 64;
    r.generated_tokens = 32;
    r.max_tokens = 32;
    r.prompt_target_len = 64;
    r.prefill_tok_s = 300;
    r.decode_tok_s = decode;
    r.decode_tok_s_samples = std::move(samples);
    r.repetitions = static_cast<std::int64_t>(r.decode_tok_s_samples.size());
    r.date = date;
    return r;
}

}  // namespace

TEST_CASE("noise estimate: median, MAD, robust and classic coefficient of variation", "[calibrate]") {
    auto n = estimate_noise({100, 102, 98, 101, 99, 130});
    REQUIRE(n);
    CHECK(n->readings == 6);
    CHECK(n->median == Approx(100.5));
    CHECK(n->mad == Approx(1.5));  // deviations 0.5 1.5 2.5 0.5 1.5 29.5
    CHECK(n->robust_cv == Approx(1.4826 * 1.5 / 100.5));
    CHECK(n->cv > n->robust_cv);      // the outlier inflates the classic spread...
    CHECK(n->sigma() == Approx(n->cv));  // ...and the thresholds take the larger one
    CHECK_FALSE(estimate_noise({1, 2}));
    CHECK_FALSE(estimate_noise({1, 2, 0}));
}

TEST_CASE("calibrated thresholds hold the target false-alarm rate on simulated A/A noise", "[calibrate]") {
    CalibrationOptions o;
    o.target_false_alarm = 0.01;
    o.repetitions = 3;
    for (double sigma : {0.01, 0.04, 0.10}) {
        NoiseEstimate noise;
        noise.readings = 20;
        noise.median = 100;
        noise.cv = sigma;
        noise.robust_cv = sigma;
        auto c = calibrate_metric("m", "r", "decode_tok_s", noise, base_threshold(), o);
        INFO("sigma " << sigma << " max_drop " << c.max_drop << " widen " << c.widen);
        CHECK(c.alpha == Approx(0.01));
        CHECK(c.max_drop == Approx(0.05));
        Threshold t{c.max_drop, c.alpha, c.widen, "calibrated"};
        std::mt19937 rng(42);
        int alarms_samples = 0, alarms_single = 0, detected = 0;
        const int trials = 4000;
        for (int i = 0; i < trials; ++i) {
            auto a = normal_readings(rng, 100, sigma, 3), b = normal_readings(rng, 100, sigma, 3);
            if (decide_metric("decode_tok_s", a, b, t, StatTest::welch_t).verdict == Verdict::regressed) ++alarms_samples;
            auto a1 = normal_readings(rng, 100, sigma, 1), b1 = normal_readings(rng, 100, sigma, 1);
            if (decide_metric("decode_tok_s", a1, b1, t, StatTest::welch_t).verdict == Verdict::regressed) ++alarms_single;
            // A true drop of the stated minimum detectable effect is found with about the stated power.
            auto slow = normal_readings(rng, 100 * (1 - c.min_detectable_effect), sigma, 3);
            if (decide_metric("decode_tok_s", a, slow, t, StatTest::welch_t).verdict == Verdict::regressed) ++detected;
        }
        CHECK(alarms_samples <= trials * 0.015);
        CHECK(alarms_single <= trials * 0.015);
        CHECK(detected >= trials * 0.90);
    }
}

TEST_CASE("minimum detectable effect shrinks with repetitions, noisy hosts need more of them", "[calibrate]") {
    CalibrationOptions o;
    NoiseEstimate quiet{20, 100, 1, 0.01, 0.01};
    NoiseEstimate noisy{20, 100, 5, 0.08, 0.08};
    auto q = calibrate_metric("m", "r", "decode_tok_s", quiet, base_threshold(), o);
    auto n = calibrate_metric("m", "r", "decode_tok_s", noisy, base_threshold(), o);
    CHECK(q.min_detectable_effect < n.min_detectable_effect);
    CHECK(q.single_reading_min_detectable_effect > q.min_detectable_effect);
    REQUIRE(q.repetitions_for_10pct);
    REQUIRE(q.repetitions_for_5pct);
    CHECK(*q.repetitions_for_10pct <= *q.repetitions_for_5pct);
    REQUIRE(n.repetitions_for_10pct);
    CHECK(*n.repetitions_for_10pct > *q.repetitions_for_10pct);
    Threshold t{0.05, 0.01, 0.0, "test"};
    CHECK(min_detectable_effect(0.05, 10, t, StatTest::welch_t, 0.95) < min_detectable_effect(0.05, 3, t, StatTest::welch_t, 0.95));
    CHECK(detection_power(0.05, 5, 0.0, t, StatTest::welch_t, 2000) < 0.02);  // A/A: hardly ever "regressed"
    CHECK(detection_power(0.05, 5, 0.30, t, StatTest::welch_t, 2000) > 0.99);
}

TEST_CASE("the calibrated file parses back, bad calibration facts are rejected with file:line", "[calibrate][thresholds]") {
    CalibrationRun run{"cpu", "ci-calib", "2026-11-29", 8, {}};
    NoiseEstimate noise{8, 50, 2, 0.06, 0.07};
    auto c = calibrate_metric("tiny-llama-ci", "llama-bench", "decode_tok_s", noise, base_threshold(), run.options);
    const std::string text = render_calibrated_thresholds(run, {c});
    auto parsed = parse_threshold_file(text, "ci-calib.json");
    INFO(text);
    REQUIRE(parsed);
    ThresholdSet set;
    set.add_layer(*parsed);
    auto t = set.lookup("decode_tok_s", "tiny-llama-ci", "llama-bench");
    CHECK(t.max_drop == Approx(c.max_drop));
    CHECK(t.noise == Approx(c.widen));
    CHECK(t.alpha == Approx(0.01));
    CHECK(render_calibration_report(run, {c}).find("tiny-llama-ci") != std::string::npos);

    const std::string bad_key = "{\n  \"calibration\": {\"runs\": 8,\n    \"runz\": 3}\n}\n";
    auto e1 = parse_threshold_file(bad_key, "h.json");
    REQUIRE_FALSE(e1);
    CHECK_THAT(e1.error().message, Catch::Contains("h.json:3:") && Catch::Contains("runz"));
    const std::string bad_value =
        "{\"overrides\": [\n {\"model\": \"x\", \"max_drop\": 0.1,\n  \"calibration\": {\"median\": -4}}]}\n";
    auto e2 = parse_threshold_file(bad_value, "h.json");
    REQUIRE_FALSE(e2);
    CHECK_THAT(e2.error().message, Catch::Contains("h.json:3:") && Catch::Contains("median"));
    // Files without a calibration section (every existing file) still parse.
    CHECK(parse_threshold_file(testing::slurp(testing::thresholds_dir() + "/default.json"), "default.json"));
}

TEST_CASE("calibrate writes the CI host's file and the gate uses it: a measured run_noise widens the fallback",
          "[calibrate][gate]") {
    TempDir tmp;
    // Ten unchanged runs of a noisy host: decode spread of about 6%.
    std::vector<ResultRow> runs;
    const double readings[] = {50, 53, 47, 51, 49, 55, 46, 50, 52, 48};
    for (double d : readings) runs.push_back(make_row(d, {}, "2026-11-29"));
    ThresholdSet base;
    base.add_layer(*parse_threshold_file(testing::slurp(testing::thresholds_dir() + "/default.json"), "default.json"));
    CalibrationOptions o;
    o.repetitions = 3;  // with samples max_drop grows less than the single-reading limit: the rest is "noise"
    auto calibrated = calibrate_rows(runs, base, o);
    REQUIRE(calibrated);
    REQUIRE(calibrated->size() == 2);  // decode and prefill
    const auto& decode = calibrated->front();
    CHECK(decode.metric == "decode_tok_s");
    CHECK(decode.max_drop == Approx(0.05));  // with samples the test (alpha 0.01) guards, not the threshold
    CHECK(decode.alpha == Approx(0.01));
    CHECK(decode.widen > 0.10);
    CHECK(decode.max_drop + decode.widen > 0.15);  // about z(0.99) * 5.9% * sqrt(2)

    CHECK(decode.run_noise == Approx(*between_run_sigma({50, 53, 47, 51, 49, 55, 46, 50, 52, 48})));

    // A very noisy pair: ten unchanged runs spreading by about 12%.
    std::vector<ResultRow> noisy;
    for (double d : {50.0, 58.0, 43.0, 55.0, 45.0, 60.0, 41.0, 52.0, 47.0, 56.0}) noisy.push_back(make_row(d, {}, "2026-11-29"));
    auto noisy_cal = calibrate_rows(noisy, base, o);
    REQUIRE(noisy_cal);
    CHECK(noisy_cal->front().run_noise > 0.08);
    // ...and a quiet one within about 1%: a calibrated run_noise below the defaults' 5% prior.
    std::vector<ResultRow> quiet;
    for (double d : {50.0, 50.4, 49.7, 50.2, 49.9, 50.5, 49.6, 50.1, 50.3, 49.8}) quiet.push_back(make_row(d, {}, "2026-11-29"));
    auto quiet_cal = calibrate_rows(quiet, base, o);
    REQUIRE(quiet_cal);
    CHECK(quiet_cal->front().run_noise < 0.015);

    const std::string thr = tmp.sub("thresholds");
    boost::filesystem::create_directories(thr);
    testing::spit(thr + "/default.json", testing::slurp(testing::thresholds_dir() + "/default.json"));
    const std::string bench = tmp.sub("bench");
    boost::filesystem::create_directories(bench);
    REQUIRE(append_results_locked(bench + "/cpu_ci-calib_2026-11-28.csv", {make_row(50, {}, "2026-11-28")}));

    GateOptions opts;
    opts.benchmarks_dir = bench;
    opts.thresholds_dir = thr;
    opts.report_missing = false;
    // One run of history and a single reading 20% slower: with the defaults' 5% prior between runs
    // the fallback rule calls it a regression...
    auto before = gate_rows({make_row(40, {}, "2026-11-29")}, opts);
    REQUIRE(before);
    CHECK(before->pairs.front().verdict == Verdict::regressed);

    CalibrationRun run{"cpu", "ci-calib", "2026-11-29", noisy.size(), o};
    testing::spit(thr + "/ci-calib.json", render_calibrated_thresholds(run, *noisy_cal));
    // ...on this pair's measured spread it is within run-to-run noise.
    auto after = gate_rows({make_row(40, {}, "2026-11-29")}, opts);
    REQUIRE(after);
    CHECK(after->pairs.front().verdict == Verdict::inconclusive);
    const auto& check = after->pairs.front().metrics;
    auto m = std::find_if(check.begin(), check.end(), [](const MetricCheck& x) { return x.metric == "decode_tok_s"; });
    REQUIRE(m != check.end());
    CHECK_THAT(m->threshold_source, Catch::Contains("ci-calib.json"));
    CHECK(m->test == "fallback");
    CHECK(*m->run_noise > 0.08);
    // A drop far beyond even that noise still fails.
    auto far = gate_rows({make_row(15, {}, "2026-11-29")}, opts);
    REQUIRE(far);
    CHECK(far->pairs.front().verdict == Verdict::regressed);

    // The quiet pair's 1% cannot make the fallback rule bolder than the defaults: run_noise only
    // ever widens, so -9% on one run of history stays inconclusive.
    run.runs = quiet.size();
    testing::spit(thr + "/ci-calib.json", render_calibrated_thresholds(run, *quiet_cal));
    auto bold = gate_rows({make_row(45.5, {}, "2026-11-29")}, opts);
    REQUIRE(bold);
    CHECK(bold->pairs.front().verdict == Verdict::inconclusive);
    CHECK(*bold->pairs.front().metrics.front().run_noise == Approx(0.05));
}

TEST_CASE("adaptive repetitions: an inconclusive metric gets more samples up to the bound, a regression is confirmed",
          "[adaptive]") {
    const std::vector<double> base = {100, 101, 99};
    const std::vector<double> noisy_drop = {80, 100, 91};  // -9%, too spread to be significant
    Threshold t = base_threshold();
    REQUIRE(decide_metric("decode_tok_s", base, noisy_drop, t, StatTest::welch_t).verdict == Verdict::inconclusive);

    std::size_t calls = 0;
    auto clear = [&](std::size_t) -> Expected<std::vector<double>> {
        ++calls;
        return std::vector<double>{90, 90.5, 89.5};
    };
    auto resolved = decide_metric_adaptive("decode_tok_s", base, noisy_drop, t, StatTest::welch_t, 3, clear);
    REQUIRE(resolved);
    CHECK(resolved->check.verdict == Verdict::regressed);
    // The first rerun decides (regressed); the others confirm it, up to the bound.
    CHECK(resolved->reruns == 3);
    CHECK(calls == 3);

    // One slow launch regresses on its own; the reruns do not confirm it, and it does not fail.
    const std::vector<double> slow_launch = {60, 60.5, 59.5};
    REQUIRE(decide_metric("decode_tok_s", base, slow_launch, t, StatTest::welch_t).verdict == Verdict::regressed);
    auto as_before = [](std::size_t) -> Expected<std::vector<double>> { return std::vector<double>{100, 100.5, 99.5}; };
    auto unconfirmed = decide_metric_adaptive("decode_tok_s", base, slow_launch, t, StatTest::welch_t, 2, as_before);
    REQUIRE(unconfirmed);
    // After one rerun the median sits between the two launches (undecided); after two it is the
    // unchanged launches' level.
    CHECK(unconfirmed->reruns == 2);
    CHECK_FALSE(fails_gate(unconfirmed->check.verdict));
    CHECK(*unconfirmed->check.change > -0.01);

    calls = 0;
    auto still_noisy = [&](std::size_t) -> Expected<std::vector<double>> {
        ++calls;
        return std::vector<double>{70, 110};  // the median stays -9%, the spread keeps p above alpha
    };
    auto bounded = decide_metric_adaptive("decode_tok_s", base, noisy_drop, t, StatTest::welch_t, 2, still_noisy);
    REQUIRE(bounded);
    CHECK(bounded->reruns == 2);
    CHECK(calls == 2);
    CHECK(bounded->check.verdict == Verdict::inconclusive);
    CHECK(bounded->check.current_samples.size() == 7);

    auto broken = [](std::size_t) -> Expected<std::vector<double>> { return make_error("runtime crashed"); };
    CHECK_FALSE(decide_metric_adaptive("decode_tok_s", base, noisy_drop, t, StatTest::welch_t, 2, broken));
}

TEST_CASE("adaptive repetitions on rows: the report says how many reruns the pair took", "[adaptive][gate]") {
    TempDir tmp;
    const std::string bench = tmp.sub("bench");
    boost::filesystem::create_directories(bench);
    REQUIRE(append_results_locked(bench + "/cpu_ci-calib_2026-11-28.csv", {make_row(100, {100, 101, 99}, "2026-11-28")}));
    GateOptions opts;
    opts.benchmarks_dir = bench;
    opts.thresholds_dir = testing::thresholds_dir();
    opts.report_missing = false;
    const ResultRow noisy = make_row(91, {80, 100, 91}, "2026-11-29");

    std::size_t calls = 0;
    auto more = [&](const PairReport& pair, std::size_t rerun) -> Expected<std::vector<ResultRow>> {
        ++calls;
        CHECK(wants_another_launch(pair.verdict));
        CHECK(rerun == calls);
        // One earlier run is too little history: the fallback rule (5% between-run prior) needs a
        // drop far beyond the floor, here -20% once the rerun settles the median.
        return std::vector<ResultRow>{make_row(80, {80, 80.5, 79.5}, "2026-11-29")};
    };
    auto report = gate_rows_adaptive({noisy}, opts, 3, more);
    REQUIRE(report);
    REQUIRE(report->pairs.size() == 1);
    CHECK(report->pairs.front().verdict == Verdict::regressed);
    // Inconclusive, then regressed and confirmed by the reruns left.
    CHECK(report->pairs.front().reruns == 3);
    CHECK(std::any_of(report->notes.begin(), report->notes.end(),
                      [](const std::string& n) { return n.find("3 rerun(s)") != std::string::npos; }));

    // Bound 0: no rerun, the verdict stays inconclusive.
    calls = 0;
    auto none = gate_rows_adaptive({noisy}, opts, 0, more);
    REQUIRE(none);
    CHECK(calls == 0);
    CHECK(none->pairs.front().verdict == Verdict::inconclusive);
    CHECK(none->pairs.front().reruns == 0);

    // Against a history of its own (the history rule): one launch 40% slow regresses on its own; the
    // confirming reruns read the usual level, and the pair does not fail.
    const std::string quiet_bench = tmp.sub("quiet");
    boost::filesystem::create_directories(quiet_bench);
    std::vector<ResultRow> history;
    for (double d : {100.0, 101.0, 99.0, 100.5, 99.5, 100.8, 99.2, 100.2})
        history.push_back(make_row(d, {d, d + 0.3, d - 0.3}, "2026-11-28"));
    REQUIRE(append_results_locked(quiet_bench + "/cpu_ci-calib_2026-11-28.csv", history));
    GateOptions quiet_opts = opts;
    quiet_opts.benchmarks_dir = quiet_bench;
    const ResultRow slow = make_row(60, {60, 60.2, 59.8}, "2026-11-29");
    auto usual = [&](const PairReport&, std::size_t) -> Expected<std::vector<ResultRow>> {
        return std::vector<ResultRow>{make_row(100, {100, 100.3, 99.7}, "2026-11-29")};
    };
    auto unconfirmed = gate_rows_adaptive({slow}, quiet_opts, 0, usual);
    REQUIRE(unconfirmed);
    CHECK(unconfirmed->pairs.front().verdict == Verdict::regressed);  // no rerun: the slow launch fails
    auto confirmed_away = gate_rows_adaptive({slow}, quiet_opts, 2, usual);
    REQUIRE(confirmed_away);
    CHECK(confirmed_away->pairs.front().reruns == 2);
    CHECK(passed(*confirmed_away));
    // A slowdown that every launch shows stays regressed after the reruns.
    auto still_slow = [&](const PairReport&, std::size_t) -> Expected<std::vector<ResultRow>> {
        return std::vector<ResultRow>{make_row(60.5, {60.5, 60.8, 60.2}, "2026-11-29")};
    };
    auto real = gate_rows_adaptive({slow}, quiet_opts, 2, still_slow);
    REQUIRE(real);
    CHECK(real->pairs.front().verdict == Verdict::regressed);
    CHECK(real->pairs.front().reruns == 2);

    // A rerun that returns another pair's row is an error, not a silent merge.
    auto wrong = [](const PairReport&, std::size_t) -> Expected<std::vector<ResultRow>> {
        ResultRow r = make_row(90, {90, 91, 89}, "2026-11-29");
        r.model = "other";
        return std::vector<ResultRow>{r};
    };
    CHECK_FALSE(gate_rows_adaptive({noisy}, opts, 2, wrong));
}
