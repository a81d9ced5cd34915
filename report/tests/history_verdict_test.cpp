// The page shows the gate's verdict against each pair's history (docs/report.md, "Verdict against
// history"), in the gate's words.
#include <algorithm>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "perfgate/report/make_report.hpp"
#include "report_test_support.hpp"

using namespace perfgate;
using namespace perfgate::report;

namespace {

const std::string repository_thresholds = std::string(PERFGATE_SOURCE_DIR) + "/thresholds";

// One run of a pair on the test host: three repetitions around `decode` and `prefill`.
ResultRow run_row(const std::string& model, double decode, double prefill, const std::string& date) {
    ResultRow r = test::make_row({.model = model, .host = "cpu-testbox", .date = date, .prompt_tokens = 128,
                                  .prompt_target_len = 128, .generated_tokens = 32, .decode_tok_s = decode,
                                  .prefill_tok_s = prefill});
    r.max_tokens = 32;
    r.batch = 1;
    r.decode_tok_s_samples = {decode * 0.999, decode, decode * 1.001};
    r.prefill_tok_s_samples = {prefill * 0.999, prefill, prefill * 1.001};
    r.run_id = date + "T120000-1";
    r.timestamp = date + "T12:00:00Z";
    return r;
}

// A page of `results` without charts, judged against `history_dir` (none when empty).
ReportOptions page_options(const std::vector<std::string>& results, const std::string& output,
                           const std::string& history_dir) {
    ReportOptions o;
    o.results = results;
    o.output = output;
    o.history_dir = history_dir;
    o.thresholds_dir = repository_thresholds;
    o.charts.enabled = false;
    return o;
}

// The verdict table's row of a pair and metric.
const std::vector<std::string>* verdict_row(const testing::Table& table, const std::string& pair, const std::string& metric) {
    for (const auto& row : table.rows)
        if (row.size() > 1 && row[0] == pair && row[1] == metric) return &row;
    return nullptr;
}

}  // namespace

TEST_CASE("page: a pair that regressed against its history reads regressed with its change, a pair without history reads new",
          "[report][verdict]") {
    testing::TempDir dir;
    // Six quiet earlier runs of steady-model (about 0.4% apart): enough for the gate's history rule.
    const double earlier[] = {100.0, 100.4, 99.7, 100.2, 99.9, 100.3};
    for (int day = 0; day < 6; ++day) {
        const auto date = fmt::format("2026-09-{:02d}", day + 1);
        testing::write_perfgate_csv(dir.file("benchmarks/cpu_cpu-testbox_" + date + ".csv"),
                                    {run_row("steady-model", earlier[day], 1000.0 + day, date)});
    }
    // Now decode is 30% down; prefill is where it was; fresh-model was never run before.
    const auto current = dir.file("results/cpu_cpu-testbox_2026-10-01.csv");
    testing::write_perfgate_csv(current, {run_row("steady-model", 70.0, 1002.0, "2026-10-01"),
                                          run_row("fresh-model", 50.0, 500.0, "2026-10-01")});

    const auto o = page_options({current}, dir.file("page/cpu_cpu-testbox_2026-10-01.md"), dir.file("benchmarks"));
    auto outcome = make_report(o);
    REQUIRE(outcome);
    CHECK(outcome->relative_gate == RelativeGate::none);  // the verdict never changes the command's exit
    CHECK(outcome->summary.find("verdict against history: perfgate gate would fail") != std::string::npos);

    const auto section = testing::section(testing::read_text(o.output), "Verdict against history");
    REQUIRE_FALSE(section.empty());
    CHECK(section.find("**fail**") != std::string::npos);
    const auto table = testing::first_table(section);
    const auto verdict = table.column("Verdict").value();
    const auto change = table.column("Change").value();
    const auto rule = table.column("Rule").value();
    const auto mde = table.column("MDE").value();
    const auto reference = table.column("Reference").value();

    const auto* dropped = verdict_row(table, "steady-model on llama-bench, prompt 128", "decode");
    REQUIRE(dropped != nullptr);
    CHECK(dropped->at(verdict) == "**regressed**");
    CHECK(dropped->at(change) == "-30.0%");
    CHECK(dropped->at(rule) == "history, 6 runs");
    CHECK(testing::leading_number(dropped->at(reference)).value() == Approx(100.0).margin(0.05));  // median of the first 5
    CHECK(testing::leading_number(dropped->at(mde)).value() > 0);

    const auto* kept = verdict_row(table, "steady-model on llama-bench, prompt 128", "prefill");
    REQUIRE(kept != nullptr);
    CHECK((kept->at(verdict) == "unchanged" || kept->at(verdict) == "within noise"));

    for (const char* metric : {"decode", "prefill"}) {
        const auto* fresh = verdict_row(table, "fresh-model on llama-bench, prompt 128", metric);
        REQUIRE(fresh != nullptr);
        CHECK(fresh->at(verdict) == "new");
        CHECK(fresh->at(change) == "-");
    }
}

TEST_CASE("page without a history folder says in one line that there is no verdict against history", "[report][verdict]") {
    testing::TempDir dir;
    const auto current = dir.file("cpu_cpu-testbox_2026-10-01.csv");
    testing::write_perfgate_csv(current, {run_row("steady-model", 70.0, 1002.0, "2026-10-01")});
    const auto o = page_options({current}, dir.file("page.md"), "");
    auto outcome = make_report(o);
    REQUIRE(outcome);
    const auto section = testing::section(testing::read_text(o.output), "Verdict against history");
    CHECK(section.find("No verdict against history: no `--history-dir` was given") != std::string::npos);
    std::size_t lines = 0;  // non-empty lines under the heading
    for (std::size_t start = 0; start < section.size();) {
        const auto end = std::min(section.find('\n', start), section.size());
        if (end > start) ++lines;
        start = end + 1;
    }
    CHECK(lines == 1);
    CHECK(outcome->summary.find("verdict against history: none (no --history-dir)") != std::string::npos);
}

TEST_CASE("page with a history folder that is not there says the gate refused it", "[report][verdict]") {
    testing::TempDir dir;
    const auto current = dir.file("cpu_cpu-testbox_2026-10-01.csv");
    testing::write_perfgate_csv(current, {run_row("steady-model", 70.0, 1002.0, "2026-10-01")});
    const auto o = page_options({current}, dir.file("page.md"), dir.file("no-such-folder"));
    auto outcome = make_report(o);
    REQUIRE(outcome);  // the page's own tables do not depend on the history
    const auto section = testing::section(testing::read_text(o.output), "Verdict against history");
    CHECK(section.find("the gate refused its input") != std::string::npos);
    CHECK(section.find("no such folder") != std::string::npos);
}

TEST_CASE("page of several runs kept in the history folder: its latest run is judged against the earlier ones",
          "[report][verdict]") {
    // The committed pages' shape: the page's own day files are the history folder. Six quiet runs
    // in one file, an hour apart (six sessions), then a seventh 30% slower in the next day's file.
    testing::TempDir dir;
    std::vector<ResultRow> first_day;
    const double earlier[] = {100.0, 100.4, 99.7, 100.2, 99.9, 100.3};
    for (int i = 0; i < 6; ++i) {
        auto r = run_row("steady-model", earlier[i], 1000.0, "2026-09-01");
        r.run_id = fmt::format("2026-09-01T1{}0000-1", i);
        r.timestamp = fmt::format("2026-09-01T1{}:00:00Z", i);
        first_day.push_back(r);
    }
    const auto day1 = dir.file("benchmarks/cpu_cpu-testbox_2026-09-01.csv");
    const auto day2 = dir.file("benchmarks/cpu_cpu-testbox_2026-09-02.csv");
    testing::write_perfgate_csv(day1, first_day);
    testing::write_perfgate_csv(day2, {run_row("steady-model", 70.0, 1000.0, "2026-09-02")});
    const auto o = page_options({day1, day2}, dir.file("page/cpu_cpu-testbox_2026-09-02.md"), dir.file("benchmarks"));
    auto outcome = make_report(o);
    REQUIRE(outcome);
    const auto section = testing::section(testing::read_text(o.output), "Verdict against history");
    const auto table = testing::first_table(section);
    const auto* dropped = verdict_row(table, "steady-model on llama-bench, prompt 128", "decode");
    REQUIRE(dropped != nullptr);
    CHECK(dropped->at(table.column("Verdict").value()) == "**regressed**");
    CHECK(dropped->at(table.column("Rule").value()) == "history, 6 runs");
    CHECK(section.find("nothing was compared") == std::string::npos);

    // The same page without the slowdown: the latest run passes against the six before it.
    testing::write_perfgate_csv(day2, {run_row("steady-model", 100.1, 1000.0, "2026-09-02")});
    REQUIRE(make_report(o));
    const auto quiet = testing::section(testing::read_text(o.output), "Verdict against history");
    CHECK(quiet.find("**pass**") != std::string::npos);
}
