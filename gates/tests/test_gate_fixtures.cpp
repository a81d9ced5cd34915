// Acceptance tests of issue 6 on the real sample CSVs (tests/fixtures/mlxcel-benchmarks).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "gate_test_support.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/render.hpp"

using namespace perfgate;
using namespace perfgate::gates;
using testing::CsvText;
using testing::TempDir;

namespace {

GateOptions fixture_options(const std::string& results) {
    GateOptions o;
    o.results = {results};
    o.benchmarks_dir = testing::fixture_dir();
    o.thresholds_dir = testing::thresholds_dir();
    return o;
}

const PairReport* find_pair(const GateReport& r, const std::string& model) {
    for (const auto& p : r.pairs)
        if (p.model == model && p.verdict != Verdict::missing) return &p;
    return nullptr;
}

const MetricCheck* find_metric(const PairReport& p, const std::string& metric) {
    for (const auto& m : p.metrics)
        if (m.metric == metric) return &m;
    return nullptr;
}

// Copies a fixture into `dir` under `name`, applying `edit` to its rows.
std::string copy_fixture(const TempDir& dir, const std::string& fixture, const std::string& name,
                         const std::function<void(CsvText&)>& edit = {}) {
    auto csv = CsvText::parse(testing::slurp(testing::fixture(fixture)));
    if (edit) edit(csv);
    auto path = dir.sub("results/" + name);
    testing::spit(path, csv.str());
    return path;
}

// The first model of a fixture with numbers and a unique name.
std::string first_ok_model(const std::string& fixture) {
    auto csv = CsvText::parse(testing::slurp(testing::fixture(fixture)));
    for (const auto& r : csv.rows)
        if (csv.ok(r)) return r[csv.col("model")];
    throw std::runtime_error("no ok row");
}

std::size_t distinct_models(const std::string& path) {
    auto file = read_results_csv(path);
    REQUIRE(file);
    std::set<std::string> models;
    for (const auto& r : file->rows) models.insert(r.model);
    return models.size();
}

}  // namespace

TEST_CASE("identical files: exit 0 and every pair within noise (one run of history cannot bound a change)",
          "[gates][acceptance]") {
    TempDir tmp;
    auto results = copy_fixture(tmp, "metal_m1ultra_2026-09-06.csv", "metal_m1ultra_2026-09-06.csv");
    auto report = run_gate(fixture_options(results));
    REQUIRE(report);
    CHECK(passed(*report));
    CHECK(report->pairs.size() == distinct_models(results));
    for (const auto& p : report->pairs) {
        INFO(p.model << " " << to_string(p.verdict) << " " << p.reason);
        // Measured pairs: judged; SKIP rows (duplicates, not a checkpoint): skipped as before; FAIL
        // rows: a known failure, unchanged.
        const Verdict expected = p.current_status == "ok"                  ? Verdict::within_noise
                                 : p.current_status.rfind("SKIP", 0) == 0 ? Verdict::skipped_as_before
                                                                          : Verdict::unchanged;
        CHECK(p.verdict == expected);
        CHECK(p.baseline_source.find("metal_m1ultra_2026-09-06.csv") != std::string::npos);
    }
}

TEST_CASE("one model's decode cut by 30%: exit 1 naming that model and metric", "[gates][acceptance]") {
    TempDir tmp;
    const std::string victim = first_ok_model("metal_m1ultra_2026-09-06.csv");
    auto results = copy_fixture(tmp, "metal_m1ultra_2026-09-06.csv", "metal_m1ultra_2026-09-06.csv", [&](CsvText& csv) {
        csv.edit([&](std::vector<std::string>& r) {
            if (r[csv.col("model")] != victim || !csv.ok(r)) return;
            auto& d = r[csv.col("decode_tok_s")];
            d = fmt::format("{:.2f}", std::stod(d) * 0.7);
        });
    });
    auto report = run_gate(fixture_options(results));
    REQUIRE(report);
    CHECK_FALSE(passed(*report));
    REQUIRE(report->count(Verdict::regressed) == 1);
    const auto& worst = report->pairs.front();
    CHECK(worst.model == victim);
    CHECK(worst.verdict == Verdict::regressed);
    auto* decode = find_metric(worst, "decode_tok_s");
    REQUIRE(decode);
    CHECK(decode->verdict == Verdict::regressed);
    CHECK(*decode->change == Approx(-0.3).margin(0.01));
    CHECK(find_metric(worst, "prefill_tok_s")->verdict == Verdict::within_noise);
    const std::string text = render_text(*report);
    CHECK_THAT(text, Catch::Contains(victim) && Catch::Contains("decode_tok_s") && Catch::Contains("regressed"));
    CHECK_THAT(render_markdown(*report), Catch::Contains(victim) && Catch::Contains("decode_tok_s"));
}

TEST_CASE("prompt lengths beyond the tolerance are reported as not comparable", "[gates][acceptance]") {
    TempDir tmp;
    const std::string victim = first_ok_model("rocm_strixhalo-gfx1151_2026-09-30.csv");
    auto results = copy_fixture(tmp, "rocm_strixhalo-gfx1151_2026-09-30.csv", "rocm_strixhalo-gfx1151_2026-10-01.csv",
                                [&](CsvText& csv) {
                                    csv.edit([&](std::vector<std::string>& r) {
                                        r[csv.col("date")] = "2026-10-01";
                                        if (r[csv.col("model")] == victim) r[csv.col("prompt_tokens")] = "600";
                                    });
                                });
    auto opts = fixture_options(results);
    opts.prompt_tolerance = 0.10;
    auto report = run_gate(opts);
    REQUIRE(report);
    auto* p = find_pair(*report, victim);
    REQUIRE(p);
    CHECK(p->verdict == Verdict::not_comparable);
    CHECK_THAT(p->reason, Catch::Contains("prompt lengths") && Catch::Contains("512") && Catch::Contains("600"));
    CHECK(passed(*report));

    opts.prompt_tolerance = 0.20;  // 600 vs 512 is 17%: comparable now
    auto wider = run_gate(opts);
    REQUIRE(wider);
    CHECK(testing::quiet(find_pair(*wider, victim)->verdict));
}

TEST_CASE("rocm against pylm on gfx1151: two runtimes on one host", "[gates][acceptance]") {
    auto opts = fixture_options(testing::fixture("rocm_strixhalo-gfx1151_2026-09-30.csv"));
    opts.baseline = testing::fixture("pylm_strixhalo-gfx1151_2026-09-30.csv");
    auto report = run_gate(opts);
    REQUIRE(report);

    // Expected verdicts come from the two files' numbers and the defaults: one run on each side, so
    // the fallback rule decides (floor 5%, alpha 0.01, an assumed 5% between-run spread).
    auto mlxcel = read_results_csv(testing::fixture("rocm_strixhalo-gfx1151_2026-09-30.csv"));
    auto pylm = read_results_csv(testing::fixture("pylm_strixhalo-gfx1151_2026-09-30.csv"));
    REQUIRE(mlxcel);
    REQUIRE(pylm);
    bool any_regression = false;
    for (const auto& row : mlxcel->rows) {
        auto ref = std::find_if(pylm->rows.begin(), pylm->rows.end(), [&](const auto& r) { return r.model == row.model; });
        REQUIRE(ref != pylm->rows.end());
        auto* p = find_pair(*report, row.model);
        REQUIRE(p);
        CHECK(p->runtime == "mlxcel");
        CHECK(p->baseline_runtime == "mlx-lm");
        CHECK(p->host == "strixhalo-gfx1151");
        CHECK_THAT(p->warnings.front(), Catch::Contains("cross-runtime"));
        const double change = *row.decode_tok_s / *ref->decode_tok_s - 1;
        auto* decode = find_metric(*p, "decode_tok_s");
        REQUIRE(decode);
        INFO(row.model << " change " << change);
        CHECK(decode->test == "fallback");
        const double bound = 2.3263 * 0.05 * std::sqrt(2.0);  // z(0.99) * se
        const double d = std::log(1 + change);
        if (change < -0.05 && d < -bound) {
            CHECK(decode->verdict == Verdict::regressed);
            any_regression = true;
        } else if (change < -0.05) {
            CHECK(decode->verdict == Verdict::inconclusive);
        } else if (change > 0.05 && d > bound) {
            CHECK(decode->verdict == Verdict::improved);
        } else {
            CHECK(testing::quiet(decode->verdict));
        }
    }
    CHECK(passed(*report) == !any_regression);
    CHECK(report->count(Verdict::missing) == 0);
}

TEST_CASE("cross-runtime date gap counts calendar days across a month boundary", "[gates][acceptance]") {
    TempDir tmp;
    auto redate = [&](const std::string& date) {
        return copy_fixture(tmp, "pylm_strixhalo-gfx1151_2026-09-30.csv", "pylm_strixhalo-gfx1151_" + date + ".csv",
                            [&](CsvText& csv) { csv.edit([&](auto& r) { r[csv.col("date")] = date; }); });
    };
    auto opts = fixture_options(testing::fixture("rocm_strixhalo-gfx1151_2026-09-30.csv"));
    opts.max_date_gap_days = 1;

    opts.baseline = redate("2026-10-01");  // one calendar day later (71 as YYYYMMDD integers)
    auto next_day = run_gate(opts);
    REQUIRE(next_day);
    CHECK(next_day->count(Verdict::not_comparable) == 0);

    opts.baseline = redate("2026-10-03");
    auto later = run_gate(opts);
    REQUIRE(later);
    CHECK(later->count(Verdict::not_comparable) == later->pairs.size());
    CHECK_THAT(later->pairs.front().reason, Catch::Contains("3 calendar days apart"));
}

TEST_CASE("a zero-decode baseline row gets a stated reason", "[gates][acceptance]") {
    TempDir tmp;
    auto results = copy_fixture(tmp, "cuda_gb10_2026-07-12.csv", "cuda_gb10_2026-07-12.csv");
    auto report = run_gate(fixture_options(results));
    REQUIRE(report);
    auto* p = find_pair(*report, "paligemma2-3b-6bit");
    REQUIRE(p);
    auto* decode = find_metric(*p, "decode_tok_s");
    REQUIRE(decode);
    CHECK(decode->verdict == Verdict::not_comparable);
    CHECK_THAT(decode->reason, Catch::Contains("0.00"));
    CHECK(testing::quiet(find_metric(*p, "prefill_tok_s")->verdict));
    CHECK(report->pairs.size() == distinct_models(results));
    CHECK(passed(*report));
}

TEST_CASE("repeated rows of one pair: each an mlxcel run of the history, the current ones one run", "[gates][acceptance]") {
    TempDir tmp;
    auto base = CsvText::parse(testing::slurp(testing::fixture("rocm_strixhalo-gfx1151_2026-09-30.csv")));
    auto template_row = base.rows.front();
    const std::string model = template_row[base.col("model")];
    auto rows_with = [&](const std::vector<double>& decodes, const std::string& date) {
        CsvText t;
        t.header = base.header;
        for (double d : decodes) {
            auto r = template_row;
            r[base.col("decode_tok_s")] = fmt::format("{:.2f}", d);
            r[base.col("date")] = date;
            t.rows.push_back(r);
        }
        return t.str();
    };
    const std::string bench = tmp.sub("bench");
    testing::spit(bench + "/rocm_strixhalo-gfx1151_2026-10-01.csv", rows_with({100, 101, 99, 100.5, 99.5}, "2026-10-01"));
    // An older file must not be chosen as the baseline over the newer one; its rows (one run each,
    // as in every mlxcel file) are history.
    testing::spit(bench + "/rocm_strixhalo-gfx1151_2026-09-01.csv", rows_with({100.2, 99.8, 100.4}, "2026-09-01"));

    GateOptions opts;
    opts.benchmarks_dir = bench;
    opts.thresholds_dir = testing::thresholds_dir();
    opts.results = {tmp.sub("run/rocm_strixhalo-gfx1151_2026-10-05.csv")};

    testing::spit(opts.results[0], rows_with({80, 81, 79}, "2026-10-05"));
    auto clear = run_gate(opts);
    REQUIRE(clear);
    REQUIRE(clear->pairs.size() == 1);
    const auto& p = clear->pairs.front();
    CHECK(p.current_rows == 3);
    CHECK(p.baseline_rows == 5);
    CHECK_THAT(p.baseline_source, Catch::Contains("2026-10-01"));
    auto* decode = find_metric(p, "decode_tok_s");
    CHECK(decode->current_samples.size() == 3);
    CHECK(decode->reference_runs == 5);  // the reference: the first 5 runs (HistoryRule's default)
    CHECK(decode->baseline_samples.size() == decode->reference_runs);
    CHECK(decode->test == "history");
    CHECK(decode->history_runs == 8);
    CHECK(decode->verdict == Verdict::regressed);
    CHECK_FALSE(passed(*clear));

    // Median -15%, but this run's own readings scatter far more than any earlier run: not trusted.
    testing::spit(opts.results[0], rows_with({70, 130, 85}, "2026-10-05"));
    auto noisy = run_gate(opts);
    REQUIRE(noisy);
    CHECK(find_metric(noisy->pairs.front(), "decode_tok_s")->verdict == Verdict::inconclusive);
    CHECK(passed(*noisy));
}

TEST_CASE("superseded baseline: a newer reading in another CSV is named", "[gates][warnings]") {
    TempDir tmp;
    auto results = copy_fixture(tmp, "metal_m1ultra_2026-09-06.csv", "metal_m1ultra_2026-09-10.csv", [](CsvText& csv) {
        csv.edit([&](auto& r) { r[csv.col("date")] = "2026-09-10"; });
    });
    auto opts = fixture_options(results);
    opts.baseline = testing::fixture("metal_m1ultra_2026-09-06.csv");
    auto report = run_gate(opts);
    REQUIRE(report);
    auto* p = find_pair(*report, "gemma2-2b-4bit");
    REQUIRE(p);
    REQUIRE(p->warnings.size() == 1);
    CHECK_THAT(p->warnings.front(), Catch::Contains("superseded") &&
                                        Catch::Contains("metal_m1ultra_2026-09-08_single_gemma2-2b-4bit.csv"));
    std::size_t superseded = 0;
    for (const auto& q : report->pairs)
        for (const auto& w : q.warnings) superseded += w.find("superseded") != std::string::npos;
    CHECK(superseded == 1);

    // Without --baseline the newest reading (the _single_ file) is the baseline itself.
    opts.baseline.reset();
    auto automatic = run_gate(opts);
    REQUIRE(automatic);
    auto* q = find_pair(*automatic, "gemma2-2b-4bit");
    CHECK_THAT(q->baseline_source, Catch::Contains("_single_gemma2-2b-4bit.csv"));
    CHECK(q->warnings.empty());
}

TEST_CASE("fingerprint change, pass-to-FAIL and missing pairs are reported", "[gates][warnings]") {
    TempDir tmp;
    auto csv = CsvText::parse(testing::slurp(testing::fixture("rocm_strixhalo-gfx1151_2026-09-30.csv")));
    const std::string failing = csv.rows[1][csv.col("model")];
    const std::string dropped = csv.rows[2][csv.col("model")];
    auto results = copy_fixture(tmp, "rocm_strixhalo-gfx1151_2026-09-30.csv", "rocm_strixhalo-gfx1151_2026-10-02.csv",
                                [&](CsvText& c) {
                                    c.rows.erase(c.rows.begin() + 2);
                                    c.edit([&](auto& r) {
                                        r[c.col("date")] = "2026-10-02";
                                        r[c.col("hip_version")] = "7.2.0";
                                        if (r[c.col("model")] == failing) {
                                            for (const char* f : {"prompt_tokens", "generated_tokens", "prefill_ms",
                                                                  "prefill_tok_s", "decode_ms", "decode_tok_s"})
                                                r[c.col(f)] = "";
                                            r.push_back("FAIL:bench");
                                        }
                                    });
                                });
    auto report = run_gate(fixture_options(results));
    REQUIRE(report);
    CHECK_FALSE(passed(*report));
    auto* f = find_pair(*report, failing);
    REQUIRE(f);
    CHECK(f->verdict == Verdict::failed);
    CHECK_THAT(f->reason, Catch::Contains("hard regression"));
    CHECK(report->pairs.front().verdict == Verdict::failed);  // worst first

    bool missing = false;
    for (const auto& p : report->pairs)
        if (p.verdict == Verdict::missing && p.model == dropped) missing = true;
    CHECK(missing);

    auto* other = find_pair(*report, csv.rows[0][csv.col("model")]);
    REQUIRE(other);
    bool fingerprint = std::any_of(other->warnings.begin(), other->warnings.end(), [](const std::string& w) {
        return w.find("fingerprint") != std::string::npos && w.find("7.15.26333 -> 7.2.0") != std::string::npos;
    });
    CHECK(fingerprint);
}

TEST_CASE("no baseline: new, SKIP and FAIL rows are never dropped", "[gates][acceptance]") {
    TempDir tmp;
    auto results = copy_fixture(tmp, "metal_m5max_vlm_2026-09-06.csv", "metal_m5max_vlm_2026-09-06.csv");
    auto opts = fixture_options(results);
    opts.benchmarks_dir = tmp.sub("empty");
    auto report = run_gate(opts);
    REQUIRE(report);
    CHECK(report->pairs.size() == distinct_models(results));
    std::size_t fails = 0;
    for (const auto& p : report->pairs) {
        if (p.current_status.rfind("FAIL:", 0) == 0) {
            CHECK(p.verdict == Verdict::failed);
            ++fails;
        } else if (p.current_status.rfind("SKIP:", 0) == 0) {
            CHECK(p.verdict == Verdict::skipped);
        } else {
            CHECK(p.verdict == Verdict::new_pair);
        }
    }
    CHECK(fails > 0);
    CHECK_FALSE(passed(*report));
}

TEST_CASE("in-memory rows (the runner's path) are gated against perfgate-schema history", "[gates][rows]") {
    TempDir tmp;
    auto make_row = [](double decode, const std::string& date) {
        ResultRow r;
        r.model = "tiny-llama-q4";
        r.runtime = "llama-bench";
        r.backend = "cpu";
        r.host = "ci-runner";
        r.prompt_tokens = 512;
        r.generated_tokens = 128;
        r.max_tokens = 128;
        r.prompt_target_len = 512;
        r.prefill_tok_s = 900;
        r.decode_tok_s = decode;
        r.decode_tok_s_samples = {decode, decode * 1.01, decode * 0.99};
        r.prefill_tok_s_samples = {900, 905, 895};
        r.repetitions = 3;
        r.date = date;
        return r;
    };
    const std::string bench = tmp.sub("bench");
    boost::filesystem::create_directories(bench);
    auto written = append_results_locked(bench + "/cpu_ci-runner_2026-10-01.csv", {make_row(40, "2026-10-01")});
    const std::string why = written ? std::string() : written.error().message;
    INFO(why);
    REQUIRE(written.has_value());

    GateOptions opts;
    opts.benchmarks_dir = bench;
    opts.thresholds_dir = testing::thresholds_dir();
    opts.report_missing = false;
    auto same = gate_rows({make_row(40, "2026-10-02")}, opts);
    REQUIRE(same);
    REQUIRE(same->pairs.size() == 1);
    CHECK(testing::quiet(same->pairs.front().verdict));

    auto slow = gate_rows({make_row(30, "2026-10-02")}, opts);
    REQUIRE(slow);
    CHECK(slow->pairs.front().verdict == Verdict::regressed);
    // One run of history: the fallback rule decided, and says so.
    CHECK(find_metric(slow->pairs.front(), "decode_tok_s")->test == "fallback");
    CHECK_FALSE(passed(*slow));
}

TEST_CASE("bad input is an error (exit 2), not a report", "[gates][errors]") {
    TempDir tmp;
    auto opts = fixture_options(tmp.sub("does-not-exist.csv"));
    CHECK_FALSE(run_gate(opts));

    auto results = copy_fixture(tmp, "cuda_v100_2026-08-31.csv", "cuda_v100_2026-08-31.csv");
    opts = fixture_options(results);
    opts.thresholds_dir = tmp.sub("thr");
    testing::spit(opts.thresholds_dir + "/v100.json", "{\n  \"metrics\": {\n    \"decode_tok_s\": {\"max_drop\": -1}\n  }\n}\n");
    auto bad = run_gate(opts);
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error().message, Catch::Contains("v100.json:3:"));

    // A host without a file gets the defaults, and the report says so.
    boost::filesystem::remove(opts.thresholds_dir + "/v100.json");
    auto defaults = run_gate(opts);
    REQUIRE(defaults);
    bool said = std::any_of(defaults->notes.begin(), defaults->notes.end(),
                            [](const std::string& n) { return n.find("v100.json") != std::string::npos; });
    CHECK(said);
}
