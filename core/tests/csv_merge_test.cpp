// perfgate merge (issue 26, item 6): the CI job proposing the next baseline copied the run's CSV
// over benchmarks/ and so deleted a same-day baseline file's rows. Rows are merged by run_id into
// the file of the same name, under its lock; no file is replaced.
#include <catch2/catch.hpp>

#include <filesystem>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/csv_merge.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

namespace {

ResultRow row(const std::string& model, const std::string& run, const std::string& arm = "") {
    ResultRow r;
    r.model = model;
    r.run_id = run;
    r.arm = arm;
    r.decode_tok_s = 10.0;
    r.prompt = "a, \"quoted\"\nprompt";
    return r;
}

std::string text_of(const std::vector<ResultRow>& rows) {
    std::string text;
    for (const auto& r : rows) text += format_result_row(r);
    return text;
}

}  // namespace

TEST_CASE("merge adds only the runs a same-day baseline file does not hold, keeping its bytes", "[csv][merge]") {
    const auto dir = test::fresh_dir("perfgate-merge", "same-day");
    const auto into = dir / "benchmarks";
    const auto incoming = dir / "incoming";
    fs::create_directories(into);
    fs::create_directories(incoming);
    const std::string name = "cpu_h_2026-12-01.csv";
    // The baseline of the morning: 22 rows of two runs.
    std::vector<ResultRow> morning;
    for (int i = 0; i < 11; ++i) morning.push_back(row("m" + std::to_string(i), "run-1"));
    for (int i = 0; i < 11; ++i) morning.push_back(row("m" + std::to_string(i), "run-2"));
    REQUIRE(append_results_locked((into / name).string(), morning));
    const std::string before = test::read_file(into / name);
    // The CI run's file of the same name: run-2 again (a rerun of the job) and the new run-3.
    const std::vector<ResultRow> new_run = {row("m0", "run-3"), row("m1", "run-3")};
    REQUIRE(append_results_locked((incoming / name).string(), {row("m0", "run-2"), row("m1", "run-2")}));
    REQUIRE(append_results_locked((incoming / name).string(), new_run));
    // A host with no file yet gets one.
    REQUIRE(append_results_locked((incoming / "cpu_other_2026-12-01.csv").string(), {row("x", "run-9")}));

    auto merged = merge_results_into(into.string(), {(incoming / name).string(),
                                                     (incoming / "cpu_other_2026-12-01.csv").string()});
    REQUIRE(merged);
    REQUIRE(merged->files.size() == 2);
    CHECK(merged->files[0].into == (into / name).string());
    CHECK(merged->files[0].added == 2);
    CHECK(merged->files[0].skipped == 2);
    CHECK(merged->files[1].added == 1);
    // Every byte the baseline had, then the new run's rows.
    CHECK(test::read_file(into / name) == before + text_of(new_run));
    CHECK(test::read_file(into / "cpu_other_2026-12-01.csv") == test::read_file(incoming / "cpu_other_2026-12-01.csv"));

    // Merging again adds nothing and leaves the file as it is.
    auto again = merge_results_into(into.string(), {(incoming / name).string()});
    REQUIRE(again);
    CHECK(again->files[0].added == 0);
    CHECK(again->files[0].skipped == 4);
    CHECK(test::read_file(into / name) == before + text_of(new_run));
}

TEST_CASE("merge refuses what it cannot merge, naming the file", "[csv][merge]") {
    const auto dir = test::fresh_dir("perfgate-merge", "refused");
    const auto into = dir / "benchmarks";
    fs::create_directories(into);
    // An mlxcel file records no run_id.
    auto mlxcel = merge_results_into(into.string(), {test::mlxcel_csv("cuda_gb10_2026-07-12.csv")});
    REQUIRE_FALSE(mlxcel);
    CHECK_THAT(mlxcel.error().message, Catch::Contains("cuda_gb10_2026-07-12.csv:1: not perfgate's schema"));
    // A destination of another schema is not appended to.
    test::write_file(into / "cpu_h_2026-12-02.csv", "model,model_path\nx,y\n");
    REQUIRE(append_results_locked((dir / "cpu_h_2026-12-02.csv").string(), {row("m", "r")}));
    auto other = merge_results_into(into.string(), {(dir / "cpu_h_2026-12-02.csv").string()});
    REQUIRE_FALSE(other);
    CHECK_THAT(other.error().message, Catch::Contains((into / "cpu_h_2026-12-02.csv").string() + ":1:"));
    CHECK(test::read_file(into / "cpu_h_2026-12-02.csv") == "model,model_path\nx,y\n");
    // No such folder.
    auto missing = merge_results_into((dir / "nope").string(), {(dir / "cpu_h_2026-12-02.csv").string()});
    REQUIRE_FALSE(missing);
    CHECK_THAT(missing.error().message, Catch::Contains("nope: no such folder"));
}

TEST_CASE("a merge that hits a file-size limit leaves the baseline file as it was", "[csv][merge][fault]") {
    const auto dir = test::fresh_dir("perfgate-merge", "fsize");
    const auto into = dir / "benchmarks";
    fs::create_directories(into);
    const std::string name = "cpu_h_2026-12-03.csv";
    REQUIRE(append_results_locked((into / name).string(), {row("m", "run-1")}));
    const std::string before = test::read_file(into / name);
    std::vector<ResultRow> many;
    for (int i = 0; i < 40; ++i) many.push_back(row("m" + std::to_string(i), "run-2"));
    REQUIRE(append_results_locked((dir / name).string(), many));
    const auto child = test::with_file_size_limit(before.size() + 100, [&]() -> Status {
        auto m = merge_results_into(into.string(), {(dir / name).string()});
        if (!m) return m.error();
        return Ok{};
    });
    INFO(child.message);
    CHECK(child.refused);
    CHECK_THAT(child.message, Catch::Contains("File too large"));
    CHECK(test::read_file(into / name) == before);
}

TEST_CASE("merge leaves replayed rows out: recorded output never becomes a baseline (issue 48, item 18)",
          "[csv][merge][hardening]") {
    const auto dir = test::fresh_dir("perfgate-merge", "replayed");
    const auto into = dir / "benchmarks";
    const auto incoming = dir / "incoming";
    fs::create_directories(into);
    fs::create_directories(incoming);
    ResultRow replayed = row("m0", "run-r");
    replayed.contention = kReplayedContention;
    const std::string name = "rocm_strixhalo_2026-12-05_replay.csv";
    REQUIRE(append_results_locked((incoming / name).string(), {replayed, replayed}));
    const std::string mixed = "cpu_h_2026-12-05.csv";
    REQUIRE(append_results_locked((incoming / mixed).string(), {row("m1", "run-m"), replayed}));
    auto merged = merge_results_into(into.string(), {(incoming / name).string(), (incoming / mixed).string()});
    REQUIRE(merged);
    CHECK_FALSE(fs::exists(into / name));  // before: the replayed rows became a baseline file
    REQUIRE(merged->files.size() == 2);
    CHECK(merged->files[0].into.empty());
    CHECK(merged->files[0].skipped == 2);
    CHECK(merged->files[1].added == 1);
    CHECK(merged->files[1].skipped == 1);
    REQUIRE(merged->warnings.size() == 2);
    CHECK_THAT(merged->warnings[0], Catch::Contains("2 replayed rows") && Catch::Contains("no baseline"));
    auto kept = read_results_csv((into / mixed).string());
    REQUIRE(kept);
    REQUIRE(kept->rows.size() == 1);
    CHECK(kept->rows[0].model == "m1");
}
