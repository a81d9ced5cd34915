// Issue 48, item 1: a change that renames the runtime (llama-bench -> llama-bench-x, or a one-point
// sweep that calls it llama-bench-b1) ran every pair as `new`, and the history's pairs under the
// old name were not even listed missing: the gate matched them by model alone. Each case here
// passed before and fails now.
#include <catch2/catch.hpp>

#include "git_repo_support.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/test/rows.hpp"

using namespace perfgate;
using namespace perfgate::gates;
using testing::git;

namespace {

std::vector<ResultRow> run_of(const std::string& runtime, const std::string& date, double decode) {
    std::vector<ResultRow> rows;
    for (const char* model : {"small", "big"}) {
        ResultRow r = test::make_row({.model = model, .runtime = runtime, .date = date, .decode_tok_s = decode});
        r.run_id = "run-" + date;
        rows.push_back(r);
    }
    return rows;
}

}  // namespace

TEST_CASE("item 1: a renamed runtime leaves the history's pairs missing, and at a base ref they fail",
          "[gates][pull_request][hardening]") {
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    if (!testing::init_repo(repo)) return;
    test::write_perfgate_csv(repo + "/benchmarks/cpu_cpu-epyc_2026-11-28.csv", run_of("llama-bench", "2026-11-28", 30.0));
    testing::spit(repo + "/thresholds/default.json", testing::slurp(testing::thresholds_dir() + "/default.json"));
    git(repo, {"add", "."});
    git(repo, {"commit", "--quiet", "-m", "baseline"});
    testing::commit_change(repo, "change");
    // The change's run: three times slower, under a new runtime name.
    const std::string results = tmp.sub("run/cpu_cpu-epyc_2026-11-29.csv");
    test::write_perfgate_csv(results, run_of("llama-bench-x", "2026-11-29", 10.0));

    GateOptions local;
    local.results = {results};
    local.benchmarks_dir = repo + "/benchmarks";
    local.thresholds_dir = repo + "/thresholds";
    local.empty_run = EmptyRun::first_run;
    auto listed = run_gate(local);
    REQUIRE(listed);
    // Without a base ref the old pairs are listed missing (before: not at all).
    CHECK(listed->count(Verdict::missing) == 2);
    CHECK(listed->count(Verdict::new_pair) == 2);

    GateOptions pr = local;
    pr.baseline_ref = "main";
    pr.pairs_at_ref = std::set<std::pair<std::string, std::string>>{{"llama-bench", "small"}, {"llama-bench", "big"}};
    auto judged = run_gate(pr);
    REQUIRE(judged);
    CHECK_FALSE(passed(*judged));  // before: PASS, every pair new
    CHECK(judged->count(Verdict::failed) == 2);
    for (const auto& p : judged->pairs)
        if (p.verdict == Verdict::failed) CHECK_THAT(p.reason, Catch::Contains("not run now") && Catch::Contains("llama-bench/"));
}
