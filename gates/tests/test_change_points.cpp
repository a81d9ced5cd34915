// Change points over a pair's history (change_points.hpp): constructed series, the error rates on
// simulated ones, and the recorded H200 runs (benchmarks/cuda_h200_*.csv unchanged, then the real
// slowdowns of docs/verdict-quality-data/h200/*plus10*.csv).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "gate_test_support.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/gates/change_points.hpp"
#include "perfgate/gates/noise_model.hpp"
#include "perfgate/gates/samples.hpp"
#include "perfgate/gates/statistics.hpp"

using namespace perfgate;
using namespace perfgate::gates;

namespace {

// `n` levels around `level` with a relative spread of `cv`, from a generator the caller owns.
std::vector<double> lognormal(std::mt19937_64& rng, std::size_t n, double level, double cv) {
    std::normal_distribution<double> z(0.0, cv);
    std::vector<double> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(level * std::exp(z(rng)));
    return out;
}

std::vector<double> concat(std::vector<double> a, const std::vector<double>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Levels around 100 with a relative spread of about `cv`, deterministic.
std::vector<double> wobble(std::size_t n, double cv, double level = 100.0) {
    static const double z[] = {0.3, -1.1, 0.8, -0.2, 1.4, -0.7, 0.1, -1.5, 0.9, -0.4, 0.6, -0.9};
    std::vector<double> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(level * std::exp(cv * z[i % 12]));
    return out;
}

// The run levels of a llama-bench pair in the given result files (ok rows), in file order and, in
// each file, oldest first: the order the runs were recorded in.
std::vector<double> recorded_levels(const std::vector<std::string>& paths, const std::string& model,
                                    const std::string& metric) {
    ModelCatalog catalog;
    std::vector<RunLevel> runs;
    for (const auto& path : paths) {
        auto parsed = read_results_csv(path);
        REQUIRE(parsed);
        std::erase_if(parsed->rows, [](const ResultRow& r) { return !r.status.ok(); });
        RowContext context;
        context.file_name = parse_benchmark_file_name(path);
        for (const auto& g : group_rows(parsed->rows, context, catalog))
            if (g.model == model && g.runtime == "llama-bench") {
                auto levels = run_levels(g, metric);
                runs.insert(runs.end(), levels.begin(), levels.end());
            }
    }
    std::vector<double> out;
    for (const auto& r : runs) out.push_back(r.value);
    return out;
}

std::vector<std::string> unchanged_h200() {
    const std::string dir = std::string(PERFGATE_SOURCE_DIR) + "/benchmarks/";
    return {dir + "cuda_h200_2026-11-29.csv", dir + "cuda_h200_2026-12-01.csv"};
}

std::string slowed_h200(const std::string& name) {
    return std::string(PERFGATE_SOURCE_DIR) + "/docs/verdict-quality-data/h200/cuda_h200_2026-12-01_" + name + ".csv";
}

}  // namespace

TEST_CASE("change points: a clear step is found at its first run, its size inside the interval", "[change_points]") {
    const auto levels = concat(wobble(12, 0.01), wobble(8, 0.01, 90.0));  // -10% from run 12
    const auto steps = find_change_points(levels);
    REQUIRE(steps.size() == 1);
    const auto& s = steps.front();
    CHECK(s.index == 12);
    CHECK(s.change == Approx(-0.10).margin(0.01));
    CHECK(s.change_low < -0.10);
    CHECK(s.change_high > -0.10);
    CHECK(s.change_low < s.change);
    CHECK(s.change < s.change_high);
    CHECK(s.before == Approx(median(wobble(12, 0.01))));
    CHECK(s.after == Approx(median(wobble(8, 0.01, 90.0))));
    CHECK(s.p_value > 0);
    CHECK(s.p_value <= 1e-6);  // a closed form: no floor of 1/1000 as 999 shuffles had
}

TEST_CASE("change points: no step in a flat noisy series, none in a constant one", "[change_points]") {
    CHECK(find_change_points(wobble(30, 0.02)).empty());
    CHECK(find_change_points(std::vector<double>(20, 42.0)).empty());
    CHECK(find_change_points({}).empty());
    CHECK(find_change_points({100, 50, 100}).empty());  // too short to hold two segments of 2
}

TEST_CASE("change points: one odd run is not a step", "[change_points]") {
    auto levels = wobble(20, 0.01);
    levels.back() = 70;  // the newest run 30% slow
    CHECK(find_change_points(levels).empty());
    levels = wobble(20, 0.01);
    levels[9] = 70;  // one slow run in the middle
    CHECK(find_change_points(levels).empty());
}

TEST_CASE("change points: two steps, each between its own neighbours", "[change_points]") {
    const auto levels = concat(concat(wobble(10, 0.01), wobble(10, 0.01, 95.0)), wobble(10, 0.01, 105.0));
    const auto steps = find_change_points(levels);
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].index == 10);
    CHECK(steps[0].change == Approx(-0.05).margin(0.01));
    CHECK(steps[1].index == 20);
    CHECK(steps[1].change == Approx(105.0 / 95.0 - 1).margin(0.01));
    CHECK(steps[1].before == Approx(steps[0].after));  // the middle segment is shared
}

TEST_CASE("change points: deterministic, and refuses levels that are not positive", "[change_points]") {
    std::mt19937_64 rng(7);
    const auto before = lognormal(rng, 10, 100, 0.01);
    const auto levels = concat(before, lognormal(rng, 6, 96, 0.01));
    // Asked twice alike, the second answer is the kept first one (change_points.cpp's memo), so
    // the second question differs in what does not touch the test (the intervals' confidence):
    // the scan itself runs twice and must shuffle alike.
    ChangePointOptions wider;
    wider.confidence = 0.9;
    const auto a = find_change_points(levels), b = find_change_points(levels, wider);
    REQUIRE(!a.empty());
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].p_value == b[i].p_value);
    CHECK_THROWS_AS(find_change_points({1, 2, 0, 3}), std::invalid_argument);
    CHECK_THROWS_AS(find_change_points({1, 2, NAN, 3}), std::invalid_argument);
}

TEST_CASE("change points: a step below the smallest change that counts is no step", "[change_points]") {
    // A clean 2% step at 0.2% spread: significant, and found without a minimum; with half of a 5%
    // floor (2.5%) it is too small to count, while a 4% step still is.
    const auto small = concat(wobble(12, 0.002, 100.0), wobble(12, 0.002, 98.0));
    REQUIRE(find_change_points(small).size() == 1);
    ChangePointOptions half_floor;
    half_floor.min_change = 0.025;
    CHECK(find_change_points(small, half_floor).empty());
    CHECK(find_change_points(small).size() == 1);  // each question is kept apart, options included
    const auto larger = concat(wobble(12, 0.002, 100.0), wobble(12, 0.002, 96.0));
    const auto found = find_change_points(larger, half_floor);
    REQUIRE(found.size() == 1);
    CHECK(found.front().index == 12);
    CHECK(found.front().change == Approx(-0.04).margin(0.003));
}

TEST_CASE("change points: an AR(1) series (rho 0.5) wanders without lasting steps beyond half the floor",
          "[change_points][rates]") {
    // Issue 45 item 4: unchanged CPU serving series with a lag-1 autocorrelation of 0.31-0.51 showed
    // false lasting steps. Runs that are not independent fool a test that assumes they are; a step
    // must also be half the floor (2.5% of a 5% floor) to count. 1% innovations, 20 runs. Measured:
    // 76 of 500 with a step without the minimum, 12 with it, 4 of them worsening (0.8%).
    std::mt19937_64 rng(45);
    std::normal_distribution<double> z(0.0, 0.01);
    ChangePointOptions half_floor;
    half_floor.min_change = 0.025;
    std::size_t plain = 0, counted = 0, worsening = 0;
    const std::size_t series = 500;
    for (std::size_t s = 0; s < series; ++s) {
        std::vector<double> levels;
        double e = z(rng) / std::sqrt(1 - 0.25);  // the stationary start
        for (int i = 0; i < 20; ++i) {
            levels.push_back(100.0 * std::exp(e));
            e = 0.5 * e + z(rng);
        }
        if (!find_change_points(levels).empty()) ++plain;
        const auto steps = find_change_points(levels, half_floor);
        if (!steps.empty()) ++counted;
        for (const auto& c : steps)
            if (c.change < 0) {
                ++worsening;
                break;
            }
    }
    INFO("false steps without a minimum: " << plain << " of " << series << "; with half the floor: " << counted
                                           << ", worsening " << worsening);
    CHECK(plain > series / 50);          // the problem: well above alpha (1%)
    CHECK(worsening * 100 <= series);    // acceptance: at most 1% false worsening steps
}

TEST_CASE("change points: false-step rate on unchanged series is at most alpha", "[change_points][rates]") {
    // 500 unchanged series of 10-30 runs at 1% spread. Each has at most one false step from its
    // first test, which Bonferroni over the splits holds to at most alpha = 0.01 (later tests run
    // only after a first step). Measured (libstdc++'s normal_distribution): 2 of 500 (0.4%). Bound: alpha plus 3 binomial standard errors,
    // 0.01 + 3 sqrt(0.01 * 0.99 / 500) = 2.3%, i.e. 11 series.
    std::mt19937_64 rng(20261202);
    std::size_t with_step = 0;
    for (int i = 0; i < 500; ++i) {
        const std::size_t n = 10 + static_cast<std::size_t>(rng() % 21);
        if (!find_change_points(lognormal(rng, n, 100, 0.01)).empty()) ++with_step;
    }
    INFO("series with a false step: " << with_step << " of 500");
    CHECK(with_step <= 11);
}

TEST_CASE("change points: two-mode noise, as tiny-llama-ci's prefill on the H200, makes no more false steps", "[change_points][rates]") {
    // Each run lands at about 180k or 230k tok/s (+-2%), at random: no normal model fits, but
    // the t test of the split is robust enough at these sizes. Measured: 5 of 500 (1.0%).
    // The bound is the one of the normal case: 11 of 500.
    std::mt19937_64 rng(20261204);
    std::normal_distribution<double> z(0.0, 0.02);
    std::bernoulli_distribution fast(0.5);
    std::size_t with_step = 0;
    for (int i = 0; i < 500; ++i) {
        const std::size_t n = 10 + static_cast<std::size_t>(rng() % 21);
        std::vector<double> levels;
        for (std::size_t k = 0; k < n; ++k) {
            const double mode = fast(rng) ? 230000.0 : 180000.0;  // drawn before the spread, in this order
            levels.push_back(mode * std::exp(z(rng)));
        }
        if (!find_change_points(levels).empty()) ++with_step;
    }
    INFO("series with a false step: " << with_step << " of 500");
    CHECK(with_step <= 11);
}

TEST_CASE("change points: heavy-tailed noise (Student's t, 3 degrees of freedom) makes no more false steps",
          "[change_points][rates]") {
    // The split's t test assumes normal noise; a tail that now and then throws a run far off is
    // where it could fail. 1% scale, 10-30 runs. Measured: 6 of 500 (1.2%). Bound as for the normal case.
    std::mt19937_64 rng(20261206);
    std::student_t_distribution<double> t3(3.0);
    std::size_t with_step = 0;
    for (int i = 0; i < 500; ++i) {
        const std::size_t n = 10 + static_cast<std::size_t>(rng() % 21);
        std::vector<double> levels;
        for (std::size_t k = 0; k < n; ++k) levels.push_back(100.0 * std::exp(0.01 * t3(rng)));
        if (!find_change_points(levels).empty()) ++with_step;
    }
    INFO("series with a false step: " << with_step << " of 500");
    CHECK(with_step <= 11);
}

TEST_CASE("change points: a 3% step at 0.7% spread, 10 runs before and 5 after, is found", "[change_points][rates]") {
    // Measured (libstdc++'s normal_distribution): found at the first slowed run in 488 of 500
    // (97.6%; the permutation test: 487). The true -3% lay inside the 95% interval in 467 of the 488
    // (96%). The bound is 95% at the exact run.
    std::mt19937_64 rng(20261203);
    std::size_t found = 0, covered = 0;
    for (int i = 0; i < 500; ++i) {
        const auto before = lognormal(rng, 10, 100, 0.007);  // drawn in this order, not as two arguments
        const auto steps = find_change_points(concat(before, lognormal(rng, 5, 97, 0.007)));
        const auto at = std::find_if(steps.begin(), steps.end(), [](const ChangePoint& c) { return c.index == 10; });
        if (at == steps.end()) continue;
        ++found;
        if (at->change_low <= -0.03 && -0.03 <= at->change_high) ++covered;
    }
    INFO("found " << found << " of 500, the true -3% inside the interval in " << covered);
    CHECK(found >= 475);
    CHECK(covered >= static_cast<std::size_t>(0.9 * static_cast<double>(found)));
}

TEST_CASE("change points: the recorded unchanged H200 runs show no decode step", "[change_points][h200]") {
    // 19 unchanged runs of the cuda suite (2 on 2026-11-29, 17 on 2026-12-01, on lent machines).
    for (const char* model : {"llama-3.1-8b", "llama-3.2-1b"}) {
        const auto levels = recorded_levels(unchanged_h200(), model, "decode_tok_s");
        REQUIRE(levels.size() == 19);
        INFO(model);
        CHECK(find_change_points(levels).empty());
    }
}

TEST_CASE("change points: a real slowdown on the H200 is found at its first slowed run", "[change_points][h200]") {
    // The 19 unchanged runs, then the 30 runs of a model forged with more blocks (decode about -10%:
    // docs/verdict-quality.md), as main would have recorded them after merging the slowdown.
    for (const auto& [model, file] : {std::pair{"llama-3.1-8b", "8b-plus10"}, std::pair{"llama-3.2-1b", "1b-plus10"}}) {
        const auto before = recorded_levels(unchanged_h200(), model, "decode_tok_s");
        const auto after = recorded_levels({slowed_h200(file)}, model, "decode_tok_s");
        REQUIRE(after.size() == 30);
        INFO(model);
        const auto steps = find_change_points(concat(before, after));
        REQUIRE_FALSE(steps.empty());
        const auto at = std::find_if(steps.begin(), steps.end(), [&](const ChangePoint& c) { return c.index == before.size(); });
        REQUIRE(at != steps.end());
        CHECK(at->change < -0.08);
        CHECK(at->change > -0.12);
        CHECK(at->change_low < at->change);
        CHECK(at->change_high > at->change);
        CHECK(at->p_value <= 0.01);
        // Only a short slowed tail: still found at its first run, with 5 slowed runs and with 2
        // (issue 45: "a plus10 step is found within 2 runs"; the permutation test needed 3).
        for (const long tail : {5L, 2L}) {
            const auto short_tail = find_change_points(concat(before, std::vector<double>(after.begin(), after.begin() + tail)));
            INFO(tail << " slowed runs");
            CHECK(std::any_of(short_tail.begin(), short_tail.end(), [&](const ChangePoint& c) { return c.index == before.size(); }));
        }
    }
}
