// Variance components across machines (machine_spread.hpp), on made-up levels whose split is known
// and on the six H200 machines of docs/measurements/h200-machines-2026-12-01/.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>

#include "gate_test_support.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/gates/calendar.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/render.hpp"
#include "perfgate/gates/machine_spread.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;
using namespace perfgate::gates;

namespace {

// Levels exp(offset + e) for each e: a machine whose runs scatter by `e` around its own level.
MachineLevels machine(const std::string& id, double offset, std::vector<double> scatter) {
    MachineLevels m{id, {}};
    for (double e : scatter) m.levels.push_back(100.0 * std::exp(offset + e));
    return m;
}

}  // namespace

TEST_CASE("machine spread: within and between machines split as constructed", "[gates][machine]") {
    // Four machines at log offsets -0.02, 0, 0.01, 0.03; each has runs at its level +-0.005.
    const std::vector<double> runs = {-0.005, 0.005, -0.005, 0.005};
    const auto s = machine_spread({machine("a", -0.02, runs), machine("b", 0.0, runs), machine("c", 0.01, runs),
                                   machine("d", 0.03, runs)});
    REQUIRE(s);
    CHECK(s->machines == 4);
    CHECK(s->runs == 16);
    CHECK(s->centre == Approx(std::log(100.0) + 0.005).margin(1e-12));
    // Within: 16 deviations of 0.005 over 12 degrees of freedom.
    const double within_var = 16 * 0.005 * 0.005 / 12;
    CHECK(s->within == Approx(std::sqrt(within_var)));
    // Means -0.02, 0, 0.01, 0.03 around 0.005, 4 runs each: between mean square 4 x 0.00043333, less
    // the within one, over 4 runs per machine.
    const double means_var = (0.025 * 0.025 + 0.005 * 0.005 + 0.005 * 0.005 + 0.025 * 0.025) / 3;
    const double between_var = (4 * means_var - within_var) / 4;
    CHECK(s->between == Approx(std::sqrt(between_var)));
    CHECK(s->predictive == Approx(std::sqrt(between_var + within_var + (between_var + within_var / 4) / 4)));
    // Satterthwaite: the predictive variance is (1 + 1/4)/4 of the between mean square plus
    // (1 + (4 x 1/4)/4^2 - (1 + 1/4)/4) of the within one, over 3 and 12 degrees of freedom.
    const double from_between = 4 * means_var * 1.25 / 4, from_within = within_var * (1 + 1.0 / 16 - 1.25 / 4);
    const double df = std::pow(from_between + from_within, 2) /
                      (from_between * from_between / 3 + from_within * from_within / 12);
    CHECK(s->df == Approx(df));
    CHECK(s->df > 3);
}

TEST_CASE("machine spread: a spread made mostly of run-to-run scatter has the within part's degrees of freedom",
          "[gates][machine]") {
    // Five machines 0.2% apart whose runs scatter by 1.5%: the predictive spread is almost all
    // within-machine scatter, measured over 45 degrees of freedom, not the 4 of five machines
    // (Satterthwaite's never exceed both together, 49).
    const std::vector<double> runs = {-0.015, 0.015, -0.015, 0.015, 0.0, -0.015, 0.015, -0.015, 0.015, 0.0};
    std::vector<MachineLevels> ms;
    for (int i = 0; i < 5; ++i) ms.push_back(machine(std::string(1, char('a' + i)), 0.002 * (i - 2), runs));
    const auto s = machine_spread(ms);
    REQUIRE(s);
    CHECK(s->between == Approx(0.0).margin(0.002));
    CHECK(s->df > 30);
    CHECK(s->df <= 49);
    // Machines far apart with the same scatter: the between part dominates and the degrees of
    // freedom fall towards machines - 1.
    for (int i = 0; i < 5; ++i) ms[i] = machine(std::string(1, char('a' + i)), 0.05 * (i - 2), runs);
    const auto far = machine_spread(ms);
    REQUIRE(far);
    CHECK(far->df >= 4);
    CHECK(far->df < 5);
}

TEST_CASE("machine spread: machines that agree have no between-machine spread", "[gates][machine]") {
    const auto s = machine_spread({machine("a", 0, {-0.01, 0.01}), machine("b", 0, {0.01, -0.01}),
                                   machine("c", 0, {0.0, 0.0})});
    REQUIRE(s);
    CHECK(s->between == 0);
    CHECK(s->within > 0);
}

TEST_CASE("machine spread: too few machines or a level that is not positive give none", "[gates][machine]") {
    CHECK_FALSE(machine_spread({machine("a", 0, {0, 0.01}), machine("b", 0.01, {0, 0.01})}));
    CHECK_FALSE(machine_spread({machine("a", 0, {0}), machine("b", 0, {0}), MachineLevels{"c", {}}}));
    CHECK_FALSE(machine_spread({machine("a", 0, {0}), machine("b", 0, {0}), MachineLevels{"c", {0.0}}}));
    // One run per machine: no within-machine spread, the machines' scatter is all between.
    const auto single = machine_spread({machine("a", 0, {0}), machine("b", 0.01, {0}), machine("c", 0.02, {0})});
    REQUIRE(single);
    CHECK(single->within == 0);
    CHECK(single->between == Approx(0.01));
}

TEST_CASE("machine spread: the six H200 machines' llama-3.1-8b decode", "[gates][machine]") {
    // Each row of these files is one run's reading of a pair (its median over 5 repetitions).
    std::map<std::string, MachineLevels> by_machine;
    const auto dir = test::source_path("docs/measurements/h200-machines-2026-12-01");
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".csv") continue;
        auto file = read_results_csv(entry.path().string());
        REQUIRE(file);
        for (const auto& row : file->rows)
            if (row.model == "llama-3.1-8b" && row.runtime == "llama-bench" && row.status.ok() && row.decode_tok_s) {
                // Machines A and B were recorded before the machine_id column: one file each.
                const std::string id = row.machine_id.empty() ? entry.path().filename().string() : row.machine_id;
                by_machine[id].machine = id;
                by_machine[id].levels.push_back(*row.decode_tok_s);
            }
    }
    std::vector<MachineLevels> machines;
    for (auto& [id, m] : by_machine) machines.push_back(m);
    const auto s = machine_spread(machines);
    REQUIRE(s);
    CHECK(s->machines == 6);
    // docs/verdict-quality.md, "Six machines": 0.62% within, 0.68% between (67 runs).
    CHECK(s->runs == 67);
    CHECK(s->within == Approx(0.0062).margin(0.0005));
    CHECK(s->between == Approx(0.0068).margin(0.0005));
    CHECK(s->predictive > s->between);
    CHECK(s->predictive < 0.0125);
}

// ---- The gate: a run on a machine the history has not seen ----

namespace {

// `runs` runs of machine `id` at `level` (decode tok/s), one file a day, run ids <id>-<i>.
// From day `first_day` on (runs are days first_day, first_day + 1, ...).
void record_machine(const testing::TempDir& tmp, const std::string& id, double level, int runs,
                    const std::string& flags = "-t 2", int first_day = 1) {
    const double wobble[] = {1.003, 0.996, 1.002, 0.999, 1.004, 0.997};
    for (int i = 0; i < runs; ++i) {
        const int day = first_day + i;
        ResultRow r = testing::history_row(level * wobble[i % 6], day, fmt::format("{}-{}", id, day));
        r.machine_id = id;
        r.machine_fingerprint = "f0f0f0f0f0f0f0f0";
        r.flags = flags;
        REQUIRE(append_results_locked(tmp.sub(fmt::format("bench/cpu_cpu-epyc_2026-11-{:02}.csv", day)), {r}));
    }
}

GateReport gate_on_new_machine(const testing::TempDir& tmp, double decode, const std::string& flags = "-t 2",
                               const std::string& thresholds = testing::thresholds_dir(),
                               long window_days = HistoryRule{}.machines_window_days) {
    ResultRow now = testing::history_row(decode, 20, "now");
    now.machine_id = "e5e5e5e5e5e5e5e5";
    now.machine_fingerprint = "f0f0f0f0f0f0f0f0";
    now.flags = flags;
    GateOptions o;
    o.benchmarks_dir = (tmp.path / "bench").string();
    o.thresholds_dir = thresholds;
    o.report_missing = false;
    o.empty_run = EmptyRun::first_run;
    o.history_rule.machines_window_days = window_days;
    auto report = gate_rows({now}, o);
    REQUIRE(report);
    REQUIRE(report->pairs.size() == 1);
    return *report;
}

// Four machines of one kind, about 1% apart.
void four_machines(const testing::TempDir& tmp) {
    record_machine(tmp, "a1a1a1a1a1a1a1a1", 60.0, 4);
    record_machine(tmp, "b2b2b2b2b2b2b2b2", 60.9, 4);
    record_machine(tmp, "c3c3c3c3c3c3c3c3", 59.4, 4);
    record_machine(tmp, "d4d4d4d4d4d4d4d4", 60.4, 4);
}

}  // namespace

TEST_CASE("new machine with three or more machines in the history: judged across machines", "[gates][machine]") {
    testing::TempDir tmp;
    four_machines(tmp);
    const GateReport same = gate_on_new_machine(tmp, 60.2);
    const PairReport& p = same.pairs.front();
    INFO(render_text(same));
    CHECK(testing::quiet(p.verdict));
    REQUIRE_FALSE(p.metrics.empty());
    CHECK(p.metrics.front().test == "machines");
    CHECK(p.metrics.front().history_runs == 16);
    CHECK(p.metrics.front().reason.find("judged across 4 other machines") != std::string::npos);
    CHECK(passed(same));

    const GateReport slower = gate_on_new_machine(tmp, 36.0);  // -40%: beyond any machine's spread
    INFO(render_text(slower));
    CHECK(slower.pairs.front().verdict == Verdict::regressed);
    CHECK_FALSE(passed(slower));
}

TEST_CASE("machines rule: an accepted step moves the machines' centre, and machines with no run since offer none",
          "[gates][machine]") {
    // Issue 45 item 2: the centre was every machine's latest runs, blind to acknowledgements, so a
    // slowdown accepted on the fleet made every new machine read regressed against the old level.
    testing::TempDir tmp;
    four_machines(tmp);  // days 1-4, about 60 tok/s
    const std::string thresholds = tmp.sub("thresholds");
    boost::filesystem::create_directories(thresholds);
    testing::spit(thresholds + "/default.json", testing::slurp(testing::thresholds_dir() + "/default.json"));
    // Both rates accepted from 2026-11-10 (a metric not acknowledged keeps every machine's runs).
    std::string entries;
    for (const char* metric : {"decode_tok_s", "prefill_tok_s"})
        entries += fmt::format(R"({}{{"host": "cpu-epyc", "runtime": "llama-bench", "model": "qwen3-0.6b", )"
                               R"("metric": "{}", "from": "2026-11-10", "why": "test: 8% slower, accepted"}})",
                               entries.empty() ? "" : ", ", metric);
    testing::spit(thresholds + "/acknowledgements.json", R"({"acknowledgements": [)" + entries + "]}");
    // Unacknowledged, a run at the new level 8% lower is a regression against the four machines.
    CHECK(gate_on_new_machine(tmp, 55.2).pairs.front().verdict == Verdict::regressed);
    // Acknowledged: none of the four has run since, so none has a level to offer.
    CHECK(gate_on_new_machine(tmp, 55.2, "-t 2", thresholds).pairs.front().verdict == Verdict::new_machine);

    // Three of them measured since, at the new level: the centre is theirs, and the reason says
    // which machines it used.
    record_machine(tmp, "a1a1a1a1a1a1a1a1", 55.2, 3, "-t 2", 11);
    record_machine(tmp, "b2b2b2b2b2b2b2b2", 56.0, 3, "-t 2", 11);
    record_machine(tmp, "c3c3c3c3c3c3c3c3", 54.6, 3, "-t 2", 11);
    const GateReport since = gate_on_new_machine(tmp, 55.4, "-t 2", thresholds);
    const PairReport& p = since.pairs.front();
    INFO(render_text(since));
    CHECK(testing::quiet(p.verdict));
    REQUIRE_FALSE(p.metrics.empty());
    CHECK(p.metrics.front().test == "machines");
    CHECK(p.metrics.front().history_runs == 9);
    CHECK(p.baseline_source == "3 other machines of host cpu-epyc (a1a1a1a1a1a1a1a1, b2b2b2b2b2b2b2b2, c3c3c3c3c3c3c3c3)");
}

TEST_CASE("machines rule: only the other machines' runs of the window before the run count", "[gates][machine]") {
    // Issue 45 item 2: the centre was the latest runs of every machine ever seen, however old.
    testing::TempDir tmp;
    four_machines(tmp);  // 2026-11-01 to 2026-11-04; the new machine's run is of 2026-11-20
    auto gate_with_window = [&](long days) {
        return gate_on_new_machine(tmp, 60.2, "-t 2", testing::thresholds_dir(), days).pairs.front();
    };
    CHECK(gate_with_window(90).metrics.front().test == "machines");  // the default: all four inside
    CHECK(gate_with_window(90).metrics.front().history_runs == 16);
    CHECK(gate_with_window(0).metrics.front().test == "machines");   // no window
    CHECK(gate_with_window(0).metrics.front().history_runs == 16);
    // 17 days back reaches 2026-11-03: machines' runs of days 3 and 4 only, still four machines.
    const PairReport narrow = gate_with_window(17);
    REQUIRE_FALSE(narrow.metrics.empty());
    CHECK(narrow.metrics.front().history_runs == 8);
    // 10 days back (2026-11-10): no machine has a run inside, so none offers a level.
    CHECK(gate_with_window(10).verdict == Verdict::new_machine);
}

TEST_CASE("iso_date_of_day: the inverse of day_number across months, years and leap days", "[gates][calendar]") {
    for (const char* date : {"1970-01-01", "2026-11-20", "2026-03-01", "2028-02-29", "2026-12-31", "2027-01-01"})
        CHECK(iso_date_of_day(*day_number(date)) == date);
    CHECK(iso_date_of_day(*day_number("2026-11-20") - 17) == "2026-11-03");
    CHECK(iso_date_of_day(*day_number("2027-01-05") - 10) == "2026-12-26");
}

TEST_CASE("new machine with fewer than three comparable machines: no verdict", "[gates][machine]") {
    testing::TempDir two;
    record_machine(two, "a1a1a1a1a1a1a1a1", 60.0, 4);
    record_machine(two, "b2b2b2b2b2b2b2b2", 60.9, 4);
    CHECK(gate_on_new_machine(two, 36.0).pairs.front().verdict == Verdict::new_machine);

    // Four machines, but their runs used other flags (a CPU suite's -t follows the machine's
    // cores): another method, so none of them counts.
    testing::TempDir other_flags;
    four_machines(other_flags);
    CHECK(gate_on_new_machine(other_flags, 36.0, "-t 4").pairs.front().verdict == Verdict::new_machine);
}

namespace {

// One sitting of `runs` runs on the machine gate_on_new_machine runs on, a minute apart on day
// 10: one session, too few for its own history rule.
void one_sitting_here(const testing::TempDir& tmp, int runs) {
    const double wobble[] = {1.001, 0.998, 1.002, 0.999};
    for (int i = 0; i < runs; ++i) {
        ResultRow r = testing::history_row(60.2 * wobble[i % 4], 10, fmt::format("e5-{}", i));
        r.timestamp = fmt::format("2026-11-10T10:{:02}:00Z", i);
        r.machine_id = "e5e5e5e5e5e5e5e5";
        r.machine_fingerprint = "f0f0f0f0f0f0f0f0";
        r.flags = "-t 2";
        REQUIRE(append_results_locked(tmp.sub("bench/cpu_cpu-epyc_2026-11-10.csv"), {r}));
    }
}

}  // namespace

TEST_CASE("a machine with one sitting of its own: judged across the other machines, not blinded by the fallback",
          "[gates][machine]") {
    testing::TempDir tmp;
    four_machines(tmp);
    one_sitting_here(tmp, 4);
    const GateReport same = gate_on_new_machine(tmp, 60.0);
    INFO(render_text(same));
    const PairReport& p = same.pairs.front();
    CHECK(testing::quiet(p.verdict));
    REQUIRE_FALSE(p.metrics.empty());
    CHECK(p.metrics.front().test == "machines");
    CHECK(p.metrics.front().reason.find("judged across 4 other machines") != std::string::npos);
    CHECK(p.metrics.front().reason.find("this machine's own history (1 session) is too short") != std::string::npos);
    CHECK(passed(same));

    // -12%: within the fallback's assumed spread of one session, far beyond the machines' 1%.
    const GateReport slower = gate_on_new_machine(tmp, 53.0);
    INFO(render_text(slower));
    CHECK(slower.pairs.front().verdict == Verdict::regressed);
    CHECK_FALSE(passed(slower));
}

TEST_CASE("a machine with one sitting of its own and fewer than three others: its own fallback decides",
          "[gates][machine]") {
    testing::TempDir tmp;
    record_machine(tmp, "a1a1a1a1a1a1a1a1", 60.0, 4);
    record_machine(tmp, "b2b2b2b2b2b2b2b2", 60.9, 4);
    one_sitting_here(tmp, 4);
    const GateReport r = gate_on_new_machine(tmp, 60.0);
    INFO(render_text(r));
    REQUIRE_FALSE(r.pairs.front().metrics.empty());
    CHECK(r.pairs.front().metrics.front().test == "fallback");
    CHECK(r.pairs.front().metrics.front().history_runs == 4);
}
