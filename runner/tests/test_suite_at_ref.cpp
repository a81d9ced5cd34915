// Issue 26, items 1 and 3 in the runner: what a change altered in a pair's workload (it fails at a
// base ref), and where the base ref may come from (never the environment a test preset sets).
#include <catch2/catch.hpp>

#include <cstdlib>

#include "perfgate/runner/suite_at_ref.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;
using namespace perfgate::runner;

namespace {

perf::Suite two_pairs() {
    perf::Suite s;
    perf::SuiteRuntime rt;
    rt.name = "llama";
    rt.args = {"-m", "{model}"};
    s.runtimes = {rt};
    s.pairs = {{"llama", "small"}, {"llama", "big"}};
    return s;
}

}  // namespace

TEST_CASE("workload changes: tokens, batch, args and flags of pairs both suites run", "[suite-at-ref]") {
    const perf::Suite base = two_pairs();
    CHECK(workload_changes(base, base).empty());

    perf::Suite tokens = base;
    tokens.workload.generated_tokens = 127;
    tokens.workload.prompt_tokens = 256;
    auto changed = workload_changes(base, tokens);
    REQUIRE(changed.size() == 2);
    CHECK(changed.at({"llama", "small"}) == "prompt_tokens 512 -> 256, generated_tokens 128 -> 127");

    perf::Suite flags = base;
    flags.runtimes[0].flags = {"-n", "1"};
    flags.pairs.push_back({"llama", "added"});  // a pair the change adds has nothing to compare
    changed = workload_changes(base, flags);
    REQUIRE(changed.size() == 2);
    CHECK(changed.at({"llama", "big"}) == "flags [] -> [-n 1]");
    CHECK_FALSE(changed.count({"llama", "added"}));
}

TEST_CASE("the base ref comes from --baseline-ref, never from PERFGATE_BASELINE_REF", "[suite-at-ref]") {
    ::unsetenv("PERFGATE_BASELINE_REF");
    CHECK_FALSE(baseline_ref_for_run(std::nullopt).value().has_value());
    CHECK(baseline_ref_for_run(std::string("abc123")).value() == std::optional<std::string>("abc123"));
    auto blank = baseline_ref_for_run(std::string(" "));
    REQUIRE_FALSE(blank);
    CHECK_THAT(blank.error().message, Catch::Contains("--baseline-ref is empty"));

    // A test preset's "environment" sets it: refused, with or without the option.
    ::setenv("PERFGATE_BASELINE_REF", "HEAD", 1);
    auto from_env = baseline_ref_for_run(std::nullopt);
    auto both = baseline_ref_for_run(std::string("abc123"));
    ::unsetenv("PERFGATE_BASELINE_REF");
    REQUIRE_FALSE(from_env);
    REQUIRE_FALSE(both);
    CHECK_THAT(from_env.error().message, Catch::Contains("PERFGATE_BASELINE_REF is set in the environment"));
}

TEST_CASE("workload changes: what runs and what it loads (issue 48, items 4-6)", "[suite-at-ref][hardening]") {
    perf::Suite base = two_pairs();
    perf::SuiteModel small;
    small.name = "small";
    small.forge_spec = perfgate::test::source_path("perf/models/tiny-llama-ci.json");
    base.models = {small};
    CHECK(workload_changes(base, base).empty());

    // Another program under the runtime's name, or the same one told otherwise by its environment.
    perf::Suite other = base;
    other.runtimes[0].binary = "./fast.sh";
    other.runtimes[0].env = {{"FAST", "1"}};
    auto changed = workload_changes(base, other);
    CHECK_THAT(changed.at({"llama", "small"}), Catch::Contains("binary  -> ./fast.sh") && Catch::Contains("env [] -> [FAST=1]"));

    // A server the pair is pointed at instead of the one perfgate starts; recorded output.
    perf::Suite served = base;
    served.runtimes[0].serving.url = "http://127.0.0.1:9";
    served.replay = true;
    changed = workload_changes(base, served);
    CHECK_THAT(changed.at({"llama", "big"}), Catch::Contains("url  -> http://127.0.0.1:9") && Catch::Contains("replay false -> true"));

    // The model: its spec's text as it was at the ref against the file now.
    const SpecTexts at_ref{{"small", "{\"block_count\": 6}"}};
    changed = workload_changes(base, base, at_ref);
    REQUIRE(changed.count({"llama", "small"}));
    CHECK_THAT(changed.at({"llama", "small"}), Catch::Contains("forge spec tiny-llama-ci.json edited"));
    CHECK_FALSE(changed.count({"llama", "big"}));  // a model with no spec: nothing to compare
    const SpecTexts same{{"small", perfgate::test::read_file(small.forge_spec)}};
    CHECK(workload_changes(base, base, same).empty());
    perf::Suite moved = base;
    moved.models[0].forge_spec = perfgate::test::source_path("perf/models/tiny-llama-ci-x3.json");
    CHECK_THAT(workload_changes(base, moved).at({"llama", "small"}), Catch::Contains("forge_spec"));
}

namespace {

void git_in(const std::filesystem::path& repo, const std::string& args) {
    const std::string command = "git -C '" + repo.string() + "' " + args + " > /dev/null 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);
}

std::string suite_json(const std::string& name, const std::string& runtime, bool replay = false) {
    return "{\"suite\": \"" + name + "\", \"description\": \"guard test\", \"backend\": \"cpu\"," +
           (replay ? " \"replay\": true," : "") +
           " \"models\": [{\"name\": \"m\", \"checkpoint\": \"m.gguf\", \"format\": \"Q8_0\"}],"
           " \"runtimes\": [{\"name\": \"" + runtime + "\", \"kind\": \"llama-bench\", \"binary\": \"llama-bench\"}]}";
}

}  // namespace

TEST_CASE("the suites guard: a pair measured at the ref must be measured now, whatever the suites are called "
          "(issue 48, items 2-3)", "[suite-at-ref][hardening]") {
    if (std::system("git --version > /dev/null 2>&1") != 0) return;
    perfgate::test::TempDir tmp("suites-guard");
    const auto repo = tmp.path / "repo";
    const auto suites = repo / "perf" / "suites";
    perfgate::test::write_file(suites / "cpu.json", suite_json("cpu", "llama-bench"));
    perfgate::test::write_file(suites / "cpu-serving.json", suite_json("cpu-serving", "server"));
    perfgate::test::write_file(suites / "cuda.json", suite_json("cuda", "other"));
    git_in(repo, "init --quiet --initial-branch=main");
    git_in(repo, "-c user.email=t@example.invalid -c user.name=t add .");
    git_in(repo, "-c user.email=t@example.invalid -c user.name=t commit --quiet -m base");

    auto same = guard_suites(suites, "cpu", "main");
    REQUIRE(same);
    CHECK(same->dropped.empty());
    CHECK(same->measured_at_ref == 2);  // cpu.json and cpu-serving.json, not cuda.json

    // The suite deleted: its pair is dropped (the per-suite gate has nothing to run).
    std::filesystem::remove(suites / "cpu.json");
    auto deleted = guard_suites(suites, "cpu", "main");
    REQUIRE(deleted);
    REQUIRE(deleted->dropped.size() == 1);
    CHECK(deleted->dropped[0].runtime == "llama-bench");
    CHECK(deleted->dropped[0].suite_at_ref == "main:perf/suites/cpu.json");

    // Made a replay (recorded, not measured): dropped too.
    perfgate::test::write_file(suites / "cpu.json", suite_json("cpu", "llama-bench", true));
    auto replayed = guard_suites(suites, "cpu", "main");
    REQUIRE(replayed);
    CHECK(replayed->dropped.size() == 1);

    // The runtime renamed: the old pair is dropped. Moved to another suite file: still measured.
    perfgate::test::write_file(suites / "cpu.json", suite_json("cpu", "llama-bench-x"));
    CHECK(guard_suites(suites, "cpu", "main")->dropped.size() == 1);
    std::filesystem::remove(suites / "cpu.json");
    perfgate::test::write_file(suites / "cpu-moved.json", suite_json("cpu-moved", "llama-bench"));
    CHECK(guard_suites(suites, "cpu", "main")->dropped.empty());

    // A ref that does not exist is an error, never a pass.
    CHECK_FALSE(guard_suites(suites, "cpu", "no-such-ref"));

    // A suite deleted with the forge spec it named: read at the ref, the spec need not exist now
    // (before: "forge spec ... does not exist", an error instead of the dropped pair).
    perfgate::test::write_file(repo / "perf" / "models" / "f.json", "{}");
    perfgate::test::write_file(suites / "cpu-forged.json",
                               "{\"suite\": \"cpu-forged\", \"description\": \"d\", \"backend\": \"cpu\","
                               " \"models\": [{\"name\": \"f\", \"forge_spec\": \"../models/f.json\", \"format\": \"Q8_0\"}],"
                               " \"runtimes\": [{\"name\": \"lb\", \"kind\": \"llama-bench\", \"binary\": \"llama-bench\"}]}");
    git_in(repo, "-c user.email=t@example.invalid -c user.name=t add -A");
    git_in(repo, "-c user.email=t@example.invalid -c user.name=t commit --quiet -m forged");
    std::filesystem::remove(suites / "cpu-forged.json");
    std::filesystem::remove(repo / "perf" / "models" / "f.json");
    auto forged_gone = guard_suites(suites, "cpu", "HEAD");
    REQUIRE(forged_gone);
    REQUIRE(forged_gone->dropped.size() == 1);
    CHECK(forged_gone->dropped[0].runtime == "lb");
}
