// Issue 26, the pull-request bypasses at the gate: a run whose pairs are all "not comparable" or
// "new" passed (a changed workload, a symlinked benchmarks/, a switched host tag or clock), the
// base ref could be HEAD itself, and `gate --results` pooled every run of a file. Each case here
// passed before and fails now.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "git_repo_support.hpp"
#include "perfgate/core/search_path.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/test/rows.hpp"

using namespace perfgate;
using namespace perfgate::gates;
using testing::commit_change;
using testing::CsvText;
using testing::git;
using testing::init_repo;

namespace {

const std::string fixture_name = "rocm_strixhalo-gfx1151_2026-09-30.csv";

// The fixture as a later run: dated `date`, every value in `column` set to `value` (when given),
// and each row's `scaled` column multiplied by `factor`.
std::string later_run(const std::string& date, const std::string& column = "", const std::string& value = "",
                      const std::string& scaled = "decode_tok_s", double factor = 1.0) {
    auto csv = CsvText::parse(testing::slurp(testing::fixture(fixture_name)));
    csv.edit([&](auto& r) {
        if (!csv.ok(r)) return;
        r[csv.col("date")] = date;
        if (!column.empty()) r[csv.col(column)] = value;
        auto& x = r[csv.col(scaled)];
        x = fmt::format("{:.2f}", std::stod(x) * factor);
    });
    return csv.str();
}

// main: the fixture as the baseline and the repository's default thresholds; then a branch
// "change" (so HEAD is not the base ref).
bool base_repo(const std::string& repo) {
    if (!init_repo(repo)) return false;
    testing::spit(repo + "/benchmarks/" + fixture_name, testing::slurp(testing::fixture(fixture_name)));
    testing::spit(repo + "/thresholds/default.json", testing::slurp(testing::thresholds_dir() + "/default.json"));
    git(repo, {"add", "."});
    git(repo, {"commit", "--quiet", "-m", "baseline"});
    return true;
}

GateOptions at(const std::string& repo, const std::string& results, const std::string& ref) {
    GateOptions o;
    o.results = {results};
    o.benchmarks_dir = repo + "/benchmarks";
    o.thresholds_dir = repo + "/thresholds";
    if (!ref.empty()) o.baseline_ref = ref;
    // The runner's rule: a run whose pairs are all new passes as a first run; the standalone gate's
    // stricter rule would hide what the ref rules themselves decide.
    o.empty_run = EmptyRun::first_run;
    return o;
}

bool all_pairs(const GateReport& r, Verdict v) {
    return !r.pairs.empty() && std::all_of(r.pairs.begin(), r.pairs.end(), [v](const PairReport& p) { return p.verdict == v; });
}

}  // namespace

TEST_CASE("item 1: a run whose pairs are all not comparable compared nothing", "[gates][pull_request]") {
    testing::TempDir tmp;
    const std::string results = tmp.sub("run/rocm_strixhalo-gfx1151_2026-10-02.csv");
    testing::spit(results, later_run("2026-10-02", "max_tokens", "127", "decode_tok_s", 0.33));
    GateOptions o;
    o.results = {results};
    o.benchmarks_dir = testing::fixture_dir();
    o.thresholds_dir = testing::thresholds_dir();
    auto strict = run_gate(o);
    REQUIRE(strict);
    CHECK(all_pairs(*strict, Verdict::not_comparable));
    CHECK_FALSE(passed(*strict));  // before: "PASS: N pairs not comparable"
    CHECK_THAT(strict->empty_run_failure, Catch::Contains("not comparable") && Catch::Contains("--allow-empty"));
    o.empty_run = EmptyRun::allow;
    auto allowed = run_gate(o);
    REQUIRE(allowed);
    CHECK(passed(*allowed));
}

TEST_CASE("item 1: a changed decode budget leaves prefill judged", "[gates][pull_request]") {
    testing::TempDir tmp;
    const std::string results = tmp.sub("run/rocm_strixhalo-gfx1151_2026-10-02.csv");
    // 128 -> 127 tokens, and prefill halved: prefill's prompt did not change, so it is compared.
    testing::spit(results, later_run("2026-10-02", "max_tokens", "127", "prefill_tok_s", 0.5));
    GateOptions o;
    o.results = {results};
    o.benchmarks_dir = testing::fixture_dir();
    o.thresholds_dir = testing::thresholds_dir();
    auto report = run_gate(o);
    REQUIRE(report);
    CHECK_FALSE(passed(*report));
    REQUIRE(all_pairs(*report, Verdict::regressed));
    for (const auto& m : report->pairs.front().metrics) {
        if (m.metric == "prefill_tok_s") CHECK(m.verdict == Verdict::regressed);
        if (m.metric == "decode_tok_s") CHECK_THAT(m.reason, Catch::Contains("decode budgets differ"));
    }
}

TEST_CASE("item 1: at a base ref a pair that is not comparable, or whose suite workload changed, fails",
          "[gates][pull_request]") {
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    if (!base_repo(repo)) return;
    commit_change(repo, "change");
    const std::string results = tmp.sub("run/rocm_strixhalo-gfx1151_2026-10-02.csv");
    testing::spit(results, later_run("2026-10-02", "max_tokens", "127", "decode_tok_s", 0.33));
    auto report = run_gate(at(repo, results, "main"));
    REQUIRE(report);
    CHECK_FALSE(passed(*report));  // before: every pair not comparable, PASS
    REQUIRE(all_pairs(*report, Verdict::failed));
    CHECK_THAT(report->pairs.front().reason, Catch::Contains("decode budgets differ") &&
                                                 Catch::Contains("at main a pair that cannot be compared"));

    // The suite's workload changed for one pair: it fails naming the change, even with numbers
    // the gate could compare.
    testing::spit(results, later_run("2026-10-02"));
    auto opts = at(repo, results, "main");
    const auto& victim = report->pairs.front();
    opts.workload_changes[{victim.runtime, victim.current_model}] = "generated_tokens 128 -> 127";
    auto changed = run_gate(opts);
    REQUIRE(changed);
    CHECK_FALSE(passed(*changed));
    REQUIRE(changed->pairs.front().verdict == Verdict::failed);
    CHECK_THAT(changed->pairs.front().reason, Catch::Contains("workload changed since main: generated_tokens 128 -> 127"));
    CHECK(changed->count(Verdict::failed) == 1);
}

TEST_CASE("item 2: a symlinked benchmarks/ does not redirect what is read at the ref, removed baselines fail",
          "[gates][pull_request]") {
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    if (!base_repo(repo)) return;
    // The change: benchmarks/ removed and replaced by a link to a folder without baselines.
    git(repo, {"checkout", "--quiet", "-b", "link"});
    git(repo, {"rm", "-r", "--quiet", "benchmarks"});
    testing::spit(repo + "/perf/models/README", "not a baseline\n");
    boost::filesystem::create_directory_symlink("perf/models", repo + "/benchmarks");
    git(repo, {"add", "-A"});
    git(repo, {"commit", "--quiet", "-m", "link"});
    const std::string results = tmp.sub("run/rocm_strixhalo-gfx1151_2026-10-02.csv");
    testing::spit(results, later_run("2026-10-02", "", "", "decode_tok_s", 0.33));

    auto report = run_gate(at(repo, results, "main"));
    REQUIRE(report);
    CHECK_FALSE(passed(*report));  // before: every pair new, "first run: baseline recorded", PASS
    CHECK(report->count(Verdict::regressed) > 0);
    CHECK(report->pairs.front().baseline_source.rfind("main:benchmarks/" + fixture_name, 0) == 0);
    REQUIRE(report->run_failures.size() == 1);
    CHECK_THAT(report->run_failures.front(), Catch::Contains("benchmarks/" + fixture_name) &&
                                                 Catch::Contains("no longer has"));

    // A link committed at the ref itself is refused, never followed.
    git(repo, {"branch", "--quiet", "linked-base"});
    commit_change(repo, "after-link");
    auto linked = run_gate(at(repo, results, "linked-base"));
    REQUIRE_FALSE(linked);
    CHECK_THAT(linked.error().message, Catch::Contains("linked-base:benchmarks is a symbolic link"));
}

TEST_CASE("item 3: the base ref may not be HEAD, nor a commit with HEAD's files", "[gates][pull_request]") {
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    if (!base_repo(repo)) return;
    const std::string results = tmp.sub("run/rocm_strixhalo-gfx1151_2026-10-02.csv");
    testing::spit(results, later_run("2026-10-02"));
    auto head = run_gate(at(repo, results, "HEAD"));
    REQUIRE_FALSE(head);  // before: accepted, and the change's own thresholds judged it
    CHECK_THAT(head.error().message, Catch::Contains("is HEAD") && Catch::Contains("the commit under test"));
    auto base = run_gate(at(repo, results, "main"));
    REQUIRE_FALSE(base);
    CHECK_THAT(base.error().message, Catch::Contains("is HEAD"));

    git(repo, {"checkout", "--quiet", "-b", "twin"});
    git(repo, {"commit", "--quiet", "--allow-empty", "-m", "same files"});
    auto twin = run_gate(at(repo, results, "main"));
    REQUIRE_FALSE(twin);
    CHECK_THAT(twin.error().message, Catch::Contains("holds exactly the files of HEAD"));

    commit_change(repo, "change");
    CHECK(run_gate(at(repo, results, "main")).has_value());
}

TEST_CASE("item 4: at a base ref a host without history, or a clock set back, fails instead of passing as new",
          "[gates][pull_request]") {
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    if (!base_repo(repo)) return;
    commit_change(repo, "change");

    // Another host tag (a fake cpuinfo, --host-tag): no file of that host at the ref.
    const std::string elsewhere = tmp.sub("run/rocm_cpu-xeon_2026-10-02.csv");
    testing::spit(elsewhere, later_run("2026-10-02", "", "", "decode_tok_s", 0.33));
    auto local = run_gate(at(repo, elsewhere, ""));
    REQUIRE(local);
    CHECK(passed(*local));  // without a ref: a first run on a new host
    CHECK(all_pairs(*local, Verdict::new_pair));
    auto host = run_gate(at(repo, elsewhere, "main"));
    REQUIRE(host);
    CHECK_FALSE(passed(*host));  // before: every pair new, PASS
    REQUIRE(all_pairs(*host, Verdict::failed));
    CHECK_THAT(host->pairs.front().reason, Catch::Contains("host cpu-xeon has no history at main"));

    // The run's clock set before every baseline: the baseline file is "later", so nothing was earlier.
    const std::string early = tmp.sub("run/rocm_strixhalo-gfx1151_2026-09-01.csv");
    testing::spit(early, later_run("2026-09-01", "", "", "decode_tok_s", 0.33));
    auto clock = run_gate(at(repo, early, "main"));
    REQUIRE(clock);
    CHECK_FALSE(passed(*clock));
    REQUIRE(all_pairs(*clock, Verdict::failed));
    CHECK_THAT(clock->pairs.front().reason, Catch::Contains("dated 2026-09-01, before every reading"));
}

TEST_CASE("item 10: gate --results judges the file's latest run, never a pool of its runs", "[gates]") {
    testing::TempDir tmp;
    std::vector<ResultRow> rows;
    auto run = [&](const std::string& id, const std::string& when, double decode) {
        ResultRow r = test::make_row("qwen3-0.6b", decode);
        r.date = "2026-11-30";
        r.run_id = id;
        r.timestamp = when;
        rows.push_back(r);
    };
    const std::string bench = tmp.sub("benchmarks");
    test::write_perfgate_csv(bench + "/cpu_cpu-epyc_2026-11-29.csv", {test::make_row("qwen3-0.6b", 1220)});
    // Two normal runs, then the latest at a third of the rate; written out of order on purpose.
    run("run-b", "2026-11-30T10:00:00Z", 1218);
    run("run-c", "2026-11-30T11:00:00Z", 402);
    run("run-a", "2026-11-30T09:00:00Z", 1216);
    const std::string results = tmp.sub("run/cpu_cpu-epyc_2026-11-30.csv");
    test::write_perfgate_csv(results, rows);
    GateOptions o;
    o.results = {results};
    o.benchmarks_dir = bench;
    o.thresholds_dir = testing::thresholds_dir();
    auto report = run_gate(o);
    REQUIRE(report);
    CHECK_FALSE(passed(*report));  // before: the pooled median 1216, "unchanged"
    REQUIRE(report->pairs.size() == 1);
    CHECK(report->pairs.front().verdict == Verdict::regressed);
    CHECK(report->pairs.front().current_rows == 1);
    bool said = false;
    for (const auto& n : report->notes) said |= n.find("judged run run-c") != std::string::npos && n.find("latest of its 3 runs") != std::string::npos;
    CHECK(said);
}

TEST_CASE("a pull request cannot acknowledge its own slowdown: acknowledgements are read at the base ref",
          "[gates][pull_request][reference]") {
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    if (!base_repo(repo)) return;
    // The change slows decode by 20% and adds an entry accepting it for every pair of the fixture.
    git(repo, {"checkout", "--quiet", "-b", "slower"});
    const auto csv = CsvText::parse(testing::slurp(testing::fixture(fixture_name)));
    std::string entries;
    for (const auto& r : csv.rows) {
        if (!csv.ok(r)) continue;
        entries += fmt::format(R"({}{{"host": "strixhalo-gfx1151", "runtime": "mlxcel", "model": "{}",
  "metric": "decode_tok_s", "from": "2026-10-01", "level": 1, "why": "faster later, promise"}})",
                               entries.empty() ? "" : ",\n", r[csv.col("model")]);
    }
    testing::spit(repo + "/thresholds/acknowledgements.json", "{\"acknowledgements\": [\n" + entries + "]}");
    git(repo, {"add", "-A"});
    git(repo, {"commit", "--quiet", "-m", "slower, acknowledged"});
    const std::string results = tmp.sub("run/rocm_strixhalo-gfx1151_2026-10-02.csv");
    testing::spit(results, later_run("2026-10-02", "", "", "decode_tok_s", 0.8));

    auto pr = run_gate(at(repo, results, "main"));
    REQUIRE(pr);
    CHECK_FALSE(passed(*pr));
    CHECK(pr->count(Verdict::regressed) > 0);
    bool edited = false;
    for (const auto& w : pr->warnings) edited = edited || w.find("acknowledgements.json") != std::string::npos;
    CHECK(edited);  // the edit is reported, not used

    // Merged, the entry is in force on main (the working tree): the same run is judged against the
    // level it names, here far below, so nothing regressed.
    auto merged = run_gate(at(repo, results, ""));
    REQUIRE(merged);
    CHECK(merged->count(Verdict::regressed) == 0);
}

TEST_CASE("local history is never read at a base ref", "[gates][pull_request]") {
    // A pull request's run must be judged by the reviewed baselines only: a folder of local
    // results (the build folder's) holding a run as slow as the change would otherwise become its
    // baseline (issue 49 item 1's local history).
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    if (!base_repo(repo)) return;  // no git here
    testing::commit_change(repo, "change");
    const std::string results = tmp.sub("run/rocm_strixhalo-gfx1151_2026-10-02.csv");
    testing::spit(results, later_run("2026-10-02", "", "", "decode_tok_s", 0.33));
    testing::spit(tmp.sub("local/rocm_strixhalo-gfx1151_2026-10-01.csv"), later_run("2026-10-01", "", "", "decode_tok_s", 0.33));
    GateOptions o = at(repo, results, "main");
    o.local_history_dir = tmp.file("local");
    auto pr = run_gate(o);
    REQUIRE(pr);
    CHECK_FALSE(passed(*pr));
    CHECK(std::any_of(pr->pairs.begin(), pr->pairs.end(), [](const PairReport& p) { return p.verdict == Verdict::regressed; }));
    CHECK(std::none_of(pr->notes.begin(), pr->notes.end(),
                       [](const std::string& n) { return n.find("own earlier runs") != std::string::npos; }));
    // Without the ref the same local run is history, and the slow run is judged against it.
    o.baseline_ref.reset();
    auto local = run_gate(o);
    REQUIRE(local);
    CHECK(std::any_of(local->notes.begin(), local->notes.end(),
                      [](const std::string& n) { return n.find("own earlier runs") != std::string::npos; }));
}

TEST_CASE("item 7: a git put first on PATH does not answer for the base ref", "[gates][pull_request]") {
    // A test preset's environment can set PATH for the perf tests: a fake git that lists no
    // baselines would make a 3x slower run read as new (or its thresholds as loosened). The gate
    // runs the git it was built with (PERFGATE_GIT_EXECUTABLE), an absolute path.
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    if (!base_repo(repo)) return;
    commit_change(repo, "change");
    const std::string results = tmp.sub("run/rocm_strixhalo-gfx1151_2026-10-02.csv");
    testing::spit(results, later_run("2026-10-02", "", "", "decode_tok_s", 0.33));
    // The fake answers as the real git does, and leaves a mark that it was asked.
    const auto real = perfgate::find_on_path("git");
    REQUIRE(real);
    const std::string fake = tmp.sub("fake-bin/git"), mark = tmp.file("fake-git-was-run");
    testing::spit(fake, "#!/bin/sh\ntouch '" + mark + "'\nexec '" + *real + "' \"$@\"\n");
    boost::filesystem::permissions(fake, boost::filesystem::owner_all);
    const char* before = std::getenv("PATH");
    const std::string saved = before ? before : "";
    ::setenv("PATH", (tmp.file("fake-bin") + ":" + saved).c_str(), 1);
    auto report = run_gate(at(repo, results, "main"));
    ::setenv("PATH", saved.c_str(), 1);
    REQUIRE(report);
    CHECK_FALSE(boost::filesystem::exists(mark));
    CHECK_FALSE(passed(*report));
    CHECK(std::any_of(report->pairs.begin(), report->pairs.end(), [](const PairReport& p) { return p.verdict == Verdict::regressed; }));
}
