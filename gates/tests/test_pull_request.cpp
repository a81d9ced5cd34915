// Pull-request safety: a branch that lowers its own baseline and loosens its own threshold still fails
// when the gate reads benchmarks/ and thresholds/ at the merge base (--baseline-ref).
#include <catch2/catch.hpp>

#include "git_repo_support.hpp"
#include "perfgate/gates/gate.hpp"

using namespace perfgate;
using namespace perfgate::gates;
using testing::commit_change;
using testing::CsvText;
using testing::git;
using testing::init_repo;

namespace {

std::string with_decode(const std::string& fixture, const std::string& model, double factor, const std::string& date) {
    auto csv = CsvText::parse(testing::slurp(testing::fixture(fixture)));
    csv.edit([&](auto& r) {
        if (!date.empty()) r[csv.col("date")] = date;
        if (r[csv.col("model")] != model) return;
        auto& d = r[csv.col("decode_tok_s")];
        d = fmt::format("{:.2f}", std::stod(d) * factor);
    });
    return csv.str();
}

}  // namespace

TEST_CASE("pull-request simulation: --baseline-ref ignores a lowered baseline and a loosened threshold",
          "[gates][pull_request]") {
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    if (!init_repo(repo)) return;
    const std::string fixture = "rocm_strixhalo-gfx1151_2026-09-30.csv";
    const std::string victim = CsvText::parse(testing::slurp(testing::fixture(fixture))).rows[3][0];
    const std::string baseline = repo + "/benchmarks/" + fixture;
    const std::string default_json = repo + "/thresholds/default.json";

    testing::spit(baseline, testing::slurp(testing::fixture(fixture)));
    testing::spit(default_json, testing::slurp(testing::thresholds_dir() + "/default.json"));
    git(repo, {"add", "."});
    git(repo, {"commit", "--quiet", "-m", "baseline and thresholds"});

    // The branch: its own run is 30% slower on one model; it lowers that baseline number and
    // loosens the decode threshold to 50%.
    git(repo, {"checkout", "--quiet", "-b", "slow-change"});
    testing::spit(baseline, with_decode(fixture, victim, 0.6, ""));
    testing::spit(default_json, R"({ "metrics": { "*": { "max_drop": 0.5, "alpha": 0.05 } } })");
    git(repo, {"commit", "--quiet", "-am", "refresh baseline, relax thresholds"});
    const std::string results = tmp.sub("run/" + std::string("rocm_strixhalo-gfx1151_2026-10-02.csv"));
    testing::spit(results, with_decode(fixture, victim, 0.7, "2026-10-02"));

    GateOptions opts;
    opts.results = {results};
    opts.benchmarks_dir = repo + "/benchmarks";
    opts.thresholds_dir = repo + "/thresholds";

    // Reading the working tree, the edits make the regression pass.
    auto cheated = run_gate(opts);
    REQUIRE(cheated);
    CHECK(passed(*cheated));

    opts.baseline_ref = "main";
    auto safe = run_gate(opts);
    REQUIRE(safe);
    CHECK_FALSE(passed(*safe));
    REQUIRE(safe->pairs.front().verdict == Verdict::regressed);
    CHECK(safe->pairs.front().model == victim);
    CHECK_THAT(safe->pairs.front().baseline_source, Catch::StartsWith("main:benchmarks/"));
    bool threshold_edit = false, baseline_edit = false;
    for (const auto& w : safe->warnings) {
        threshold_edit |= w.find("thresholds/default.json") != std::string::npos && w.find("edited") != std::string::npos;
        baseline_edit |= w.find("benchmarks/" + fixture) != std::string::npos && w.find("baseline edited") != std::string::npos;
    }
    CHECK(threshold_edit);
    CHECK(baseline_edit);

    // Uncommitted working-tree edits are reported too.
    git(repo, {"checkout", "--quiet", "main"});
    commit_change(repo, "dirty");
    testing::spit(default_json, R"({ "metrics": { "*": { "max_drop": 0.9 } } })");
    auto dirty = run_gate(opts);
    REQUIRE(dirty);
    CHECK_FALSE(passed(*dirty));
    REQUIRE(dirty->warnings.size() == 1);
    CHECK_THAT(dirty->warnings.front(), Catch::Contains("thresholds/default.json"));

    opts.baseline_ref = "no-such-ref";
    auto bad_ref = run_gate(opts);
    REQUIRE_FALSE(bad_ref);
    CHECK_THAT(bad_ref.error().message, Catch::Contains("no-such-ref"));
}

// Hardening issue, item 2: the suite a pull request runs is its own, so renaming a pair (or
// inflating weight_gb until the memory guard skips it) turned a regression into "new" plus
// "missing" or "skipped", and the gate passed. With --baseline-ref such a pair fails unless the
// suite at the ref does not run it either.
TEST_CASE("pull-request guard: a pair ok in the baseline that is missing or skipped now fails at a ref",
          "[gates][pull_request]") {
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    if (!init_repo(repo)) return;
    const std::string fixture = "rocm_strixhalo-gfx1151_2026-09-30.csv";
    auto base = CsvText::parse(testing::slurp(testing::fixture(fixture)));
    const std::string dropped = base.rows[1][0], skipped = base.rows[2][0];
    testing::spit(repo + "/benchmarks/" + fixture, base.str());
    testing::spit(repo + "/thresholds/default.json", testing::slurp(testing::thresholds_dir() + "/default.json"));
    git(repo, {"add", "."});
    git(repo, {"commit", "--quiet", "-m", "baseline"});
    commit_change(repo, "change");

    // The change's run: `dropped` renamed away (its row now under another name: new), `skipped`
    // recorded as skipped by the memory guard, every other pair unchanged.
    auto run = base;
    run.edit([&](auto& r) {
        r[run.col("date")] = "2026-10-02";
        if (r[run.col("model")] == dropped) r[run.col("model")] = dropped + "-renamed";
        if (r[run.col("model")] == skipped) r.push_back("SKIP:oom_estimate");
    });
    const std::string results = tmp.sub("run/rocm_strixhalo-gfx1151_2026-10-02.csv");
    testing::spit(results, run.str());

    GateOptions opts;
    opts.results = {results};
    opts.benchmarks_dir = repo + "/benchmarks";
    opts.thresholds_dir = repo + "/thresholds";
    auto verdict_of = [](const GateReport& r, const std::string& model) {
        for (const auto& p : r.pairs)
            if (p.model == model || p.current_model == model || p.baseline_model == model) return p;
        FAIL("no pair " << model);
        return PairReport{};
    };

    // Without a ref (a local run): listed loudly, not failing, as before.
    auto local = run_gate(opts);
    REQUIRE(local);
    CHECK(passed(*local));
    CHECK(verdict_of(*local, dropped).verdict == Verdict::missing);
    CHECK(verdict_of(*local, skipped).verdict == Verdict::skipped);
    bool said_missing = false;
    for (const auto& w : local->warnings) said_missing |= w.find("1 pair of the baseline was not run now") != std::string::npos;
    CHECK(said_missing);

    // At the ref, the suite unknown: both fail, and the reason says why.
    opts.baseline_ref = "main";
    auto guarded = run_gate(opts);
    REQUIRE(guarded);
    CHECK_FALSE(passed(*guarded));
    const auto missing = verdict_of(*guarded, dropped), skip = verdict_of(*guarded, skipped);
    CHECK(missing.verdict == Verdict::failed);
    CHECK_THAT(missing.reason, Catch::Contains("not run now") && Catch::Contains("cannot leave it out of the gate"));
    CHECK(skip.verdict == Verdict::failed);
    CHECK_THAT(skip.reason, Catch::Contains("SKIP:oom_estimate now") && Catch::Contains("main"));

    // The suite at the ref runs both: still failing. It runs neither: listed, passing.
    const std::string runtime = missing.runtime;
    opts.pairs_at_ref = std::set<std::pair<std::string, std::string>>{{runtime, dropped}, {runtime, skipped}};
    auto listed = run_gate(opts);
    REQUIRE(listed);
    CHECK_FALSE(passed(*listed));
    CHECK_THAT(verdict_of(*listed, dropped).reason, Catch::Contains("the suite runs"));
    opts.pairs_at_ref = std::set<std::pair<std::string, std::string>>{};
    auto dropped_at_ref = run_gate(opts);
    REQUIRE(dropped_at_ref);
    CHECK(passed(*dropped_at_ref));
    CHECK(verdict_of(*dropped_at_ref, dropped).verdict == Verdict::missing);
    CHECK_THAT(verdict_of(*dropped_at_ref, dropped).reason, Catch::Contains("does not run"));
    CHECK(verdict_of(*dropped_at_ref, skipped).verdict == Verdict::skipped);
}
