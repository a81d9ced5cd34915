// Pull-request safety: a branch that lowers its own baseline and loosens its own threshold still fails
// when the gate reads benchmarks/ and thresholds/ at the merge base (--baseline-ref).
#include <catch2/catch.hpp>

#include <boost/process.hpp>

#include "gate_test_support.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/git_tree.hpp"

using namespace perfgate;
using namespace perfgate::gates;
using testing::CsvText;

namespace {

void git(const std::string& repo, const std::vector<std::string>& args) {
    auto out = run_git(repo, args);
    const std::string why = out ? std::string() : out.error().message;
    INFO(why);
    REQUIRE(out.has_value());
}

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
    if (boost::process::search_path("git").empty()) {
        WARN("git is not installed; pull-request simulation not run");
        return;
    }
    testing::TempDir tmp;
    const std::string repo = tmp.sub("repo");
    boost::filesystem::create_directories(repo);
    const std::string fixture = "rocm_strixhalo-gfx1151_2026-09-30.csv";
    const std::string victim = CsvText::parse(testing::slurp(testing::fixture(fixture))).rows[3][0];
    const std::string baseline = repo + "/benchmarks/" + fixture;
    const std::string default_json = repo + "/thresholds/default.json";

    git(repo, {"init", "--quiet", "--initial-branch=main"});
    git(repo, {"config", "user.email", "gate@example.invalid"});
    git(repo, {"config", "user.name", "gate test"});
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
    CHECK(exit_code(*cheated) == 0);

    opts.baseline_ref = "main";
    auto safe = run_gate(opts);
    REQUIRE(safe);
    CHECK(exit_code(*safe) == 1);
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
    testing::spit(default_json, R"({ "metrics": { "*": { "max_drop": 0.9 } } })");
    auto dirty = run_gate(opts);
    REQUIRE(dirty);
    CHECK(exit_code(*dirty) == 1);
    REQUIRE(dirty->warnings.size() == 1);
    CHECK_THAT(dirty->warnings.front(), Catch::Contains("thresholds/default.json"));

    opts.baseline_ref = "no-such-ref";
    auto bad_ref = run_gate(opts);
    REQUIRE_FALSE(bad_ref);
    CHECK_THAT(bad_ref.error().message, Catch::Contains("no-such-ref"));
}
