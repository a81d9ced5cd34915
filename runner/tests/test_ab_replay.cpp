// perfgate ab --replay: recorded A/B rows judged again by the live run's rule, without a launch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgate/core/csv.hpp"
#include "perfgate/runner/ab.hpp"
#include "perfgate/runner/ab_render.hpp"
#include "perfgate/test/files.hpp"
#include "perfgate/test/rows.hpp"

using namespace perfgate;

namespace {

// One launch's row as perfgate ab records it: the arm, the binary in the command, a timestamp.
ResultRow launch(const std::string& model, const std::string& arm, double decode, int second) {
    ResultRow r = test::make_row({.model = model, .decode_tok_s = decode});
    r.arm = arm;
    r.run_id = "ab-1";
    r.command = (arm == "base" ? "/builds/base/llama-bench" : "/builds/head/llama-bench") + std::string(" -m x.gguf");
    r.timestamp = fmt::format("2026-12-05T04:00:{:02d}Z", second);
    return r;
}

// `rounds` rounds of one model, head/base = `ratio` with a small alternating wobble, ABBA order,
// a launch every 2 s.
std::vector<ResultRow> recorded(const std::string& model, double ratio, std::size_t rounds, int start = 0) {
    std::vector<ResultRow> rows;
    int t = start;
    for (std::size_t k = 0; k < rounds; ++k) {
        const double wobble = k % 2 ? 1.004 : 0.996;
        const bool base_first = k % 4 == 0 || k % 4 == 3;
        for (const bool base : {base_first, !base_first}) {
            t += 2;
            rows.push_back(launch(model, base ? "base" : "head", base ? 100.0 : 100.0 * ratio * wobble, t));
        }
    }
    return rows;
}

ResultFile file_of(const std::vector<ResultRow>& rows, const test::TempDir& dir) {
    const auto path = dir.file("cpu_cpu-epyc_2026-12-05_ab.csv");
    test::write_perfgate_csv(path, rows);
    auto file = read_results_csv(path);
    REQUIRE(file);
    return *file;
}

runner::AbReplayRequest request(std::size_t min_rounds, std::size_t max_rounds, double ab_floor = 0.01) {
    runner::AbReplayRequest r;
    r.stop = {min_rounds, max_rounds};
    gates::ThresholdFile floors;
    gates::ThresholdRule rule;
    rule.fields.max_drop = 0.05;
    rule.fields.ab_max_drop = ab_floor;
    floors.rules.push_back(rule);
    r.thresholds.add_layer(floors);
    return r;
}

}  // namespace

TEST_CASE("A/B replay: the live rule's verdicts from recorded rows, stopping where a live run would", "[runner][ab][replay]") {
    test::TempDir dir("ab-replay");
    auto rows = recorded("slow", 0.97, 10);
    auto same = recorded("same", 1.0, 10, 40);
    rows.insert(rows.end(), same.begin(), same.end());
    auto report = runner::replay_ab(file_of(rows, dir), request(5, 10));
    REQUIRE(report);
    REQUIRE(report->models.size() == 2);
    const auto& slow = report->models[0];
    CHECK(slow.model == "slow");
    CHECK(slow.verdict == gates::Verdict::regressed);
    CHECK(slow.checks.front().rounds == slow.rounds);
    CHECK(slow.rounds >= 5);
    CHECK(slow.rounds <= 10);
    // 2 launches a round, a launch every 2 s: the rounds it took, timed from the rows.
    REQUIRE(slow.seconds);
    CHECK(*slow.seconds == Approx(4.0 * static_cast<double>(slow.rounds)));
    // The same build: shown unchanged by the equivalence test (its interval inside +-1%).
    CHECK(report->models[1].verdict == gates::Verdict::unchanged);
    CHECK(report->base_binary == "/builds/base/llama-bench");
    CHECK(report->head_binary == "/builds/head/llama-bench");
    CHECK_FALSE(report->replayed_from.empty());
    const auto text = runner::render_ab(*report, runner::AbFormat::text);
    CHECK(text.find("replayed from recorded rows, no launch made") != std::string::npos);
    CHECK(runner::ab_outcome(*report) == runner::Outcome::fail);

    // Under a floor of 5%, the 3% drop is no regression: the floor is the thresholds' ab_max_drop.
    auto wide = runner::replay_ab(file_of(rows, dir), request(5, 10, 0.05));
    REQUIRE(wide);
    CHECK(wide->models[0].verdict != gates::Verdict::regressed);
}

TEST_CASE("A/B replay: a recording that ends before the rule stops decides nothing", "[runner][ab][replay]") {
    test::TempDir dir("ab-replay");
    auto report = runner::replay_ab(file_of(recorded("m", 1.0, 4), dir), request(5, 10));
    REQUIRE(report);
    CHECK(report->models[0].verdict == gates::Verdict::inconclusive);
    CHECK(report->models[0].reason.find("recording ends after 4 rounds") != std::string::npos);
}

TEST_CASE("A/B replay: rows perfgate ab did not write are refused with file and line", "[runner][ab][replay]") {
    test::TempDir dir("ab-replay");
    auto rows = recorded("m", 1.0, 6);
    rows[3].arm.clear();
    auto no_arm = runner::replay_ab(file_of(rows, dir), request(5, 10));
    REQUIRE_FALSE(no_arm);
    CHECK(no_arm.error().message.find("cpu_cpu-epyc_2026-12-05_ab.csv:5: a row without an arm") != std::string::npos);

    auto two_runs = recorded("m", 1.0, 6);
    two_runs[7].run_id = "ab-2";
    auto mixed = runner::replay_ab(file_of(two_runs, dir), request(5, 10));
    REQUIRE_FALSE(mixed);
    CHECK(mixed.error().message.find("rows of 2 A/B runs") != std::string::npos);
}

TEST_CASE("A/B replay: a failed launch ends its model as it ended the live run", "[runner][ab][replay]") {
    test::TempDir dir("ab-replay");
    // Round 4 runs base first (ABBA BAAB): its base launch failed, and the live run ended there,
    // so the head arm has 3 launches and the base arm 4, the last one failed.
    auto rows = recorded("m", 1.0, 8);
    rows.resize(7);
    REQUIRE(rows[6].arm == "base");
    rows[6].status.text = "FAIL:bench";
    rows[6].decode_tok_s.reset();
    auto report = runner::replay_ab(file_of(rows, dir), request(5, 10));
    REQUIRE(report);
    CHECK(report->models[0].verdict == gates::Verdict::failed);  // before: inconclusive, "ends after 3 rounds"
    CHECK(report->models[0].reason.find("base arm, round 4: bench") != std::string::npos);
}

namespace {

// The decode verdict and round count of one recorded A/B file, replayed with the shipped rule.
std::pair<gates::Verdict, std::size_t> replayed_decode(const std::string& path) {
    auto report = runner::replay_ab_file(path, std::filesystem::path(PERFGATE_SOURCE_DIR) / "thresholds", {5, 10}, 0.01);
    REQUIRE(report);
    REQUIRE(report->models.size() == 1);
    const auto& checks = report->models.front().checks;
    const auto decode = std::find_if(checks.begin(), checks.end(), [](const auto& c) { return c.metric == "decode_tok_s"; });
    REQUIRE(decode != checks.end());
    return {decode->verdict, report->models.front().rounds};
}

// One committed GPU recording of docs/measurements/<batch>/decisions: dNNN-MODEL-CONDITION/ with
// its rows, read.
struct Recording {
    std::string name;
    std::filesystem::path csv;
    ResultFile file;
    bool is_aa = false;
};

std::vector<Recording> committed_recordings(const std::string& batch) {
    namespace fs = std::filesystem;
    std::vector<Recording> out;
    for (const auto& entry : fs::directory_iterator(fs::path(PERFGATE_SOURCE_DIR) / "docs/measurements" / batch / "decisions")) {
        const std::string name = entry.path().filename().string();
        const fs::path csv = entry.path() / "cuda_h100_2026-12-06_ab.csv";
        auto recorded = read_results_csv(csv.string());
        REQUIRE(recorded);
        out.push_back({name, csv, std::move(*recorded), name.ends_with("-aa")});
    }
    return out;
}

}  // namespace

// The GPU recordings kept in docs/measurements (20 ABBA rounds of llama-3.1-8b on an H100, each
// judged as two disjoint 10-round decisions, docs/verdict-quality.md): the shipped rule and
// thresholds must keep deciding them as measured, A/A unchanged and the 2% slowdown regressed, so
// a change of the rule that would lose the GPU's verdicts fails here and not on the next device.
TEST_CASE("A/B replay: the committed H100 recordings keep their verdicts under the shipped rule", "[runner][ab][replay]") {
    test::TempDir dir("ab-replay-h100");
    std::size_t aa = 0, slowed = 0;
    for (const auto& r : committed_recordings("ab-h100-2026-12-06")) {
        REQUIRE(r.file.rows.size() == 40);
        for (std::size_t half = 0; half < 2; ++half) {
            INFO(r.name << " rounds " << (half * 10 + 1) << "-" << (half * 10 + 10));
            const std::vector<ResultRow> rows(r.file.rows.begin() + static_cast<long>(half * 20),
                                              r.file.rows.begin() + static_cast<long>(half * 20 + 20));
            const auto path = dir.sub(fmt::format("{}-{}/cuda_h100_2026-12-06_ab.csv", r.name, half));
            test::write_perfgate_csv(path, rows);
            CHECK(replayed_decode(path).first == (r.is_aa ? gates::Verdict::unchanged : gates::Verdict::regressed));
            ++(r.is_aa ? aa : slowed);
        }
    }
    CHECK(aa == 12);
    CHECK(slowed == 6);
}

// Batch 3 ran the rule live (docs/measurements/ab-h100-2026-12-06-live): each recording ends where
// the live decision stopped, so its replay must reach the same verdict at its last round, not
// before it and not wanting more: the replay is the live rule.
TEST_CASE("A/B replay: the live H100 decisions replay to their verdicts at the round they stopped", "[runner][ab][replay]") {
    std::size_t aa = 0, slowed = 0;
    for (const auto& r : committed_recordings("ab-h100-2026-12-06-live")) {
        INFO(r.name);
        const auto [verdict, rounds] = replayed_decode(r.csv.string());
        CHECK(verdict == (r.is_aa ? gates::Verdict::unchanged : gates::Verdict::regressed));
        CHECK(rounds * 2 == r.file.rows.size());
        ++(r.is_aa ? aa : slowed);
    }
    CHECK(aa == 26);
    CHECK(slowed == 12);
}

// Issue 46 item 3: on a shared CPU another tenant slows some repetitions of a launch, never speeds
// one up. Each launch here has one clean repetition (within 0.2%) and one slowed by 5-35%: read by
// the median of the two the A/A scatters by several percent a round and cannot be bounded inside the
// 1% floor in 10 rounds; read by the best repetition it is unchanged. A real 3% slowdown stays
// regressed either way.
TEST_CASE("A/B replay: --launch-reading best reads each launch by its least disturbed repetition", "[runner][ab][replay]") {
    test::TempDir dir("ab-replay-best");
    const auto disturbed = [](std::vector<ResultRow> rows) {
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const double clean = *rows[i].decode_tok_s * (i % 3 == 0 ? 1.002 : i % 3 == 1 ? 0.999 : 1.0);
            const double slowed = clean * (0.65 + 0.3 * static_cast<double>((i * 7) % 11) / 10.0);
            rows[i].decode_tok_s_samples = i % 2 ? std::vector<double>{slowed, clean} : std::vector<double>{clean, slowed};
            rows[i].decode_tok_s = (clean + slowed) / 2;
        }
        return rows;
    };
    const auto same = file_of(disturbed(recorded("same", 1.0, 10)), dir);
    auto req = request(5, 10);
    auto by_median = runner::replay_ab(same, req);
    REQUIRE(by_median);
    CHECK(by_median->models.front().verdict == gates::Verdict::inconclusive);
    req.reading = runner::LaunchReading::best;
    auto by_best = runner::replay_ab(same, req);
    REQUIRE(by_best);
    INFO(runner::render_ab(*by_best, runner::AbFormat::text, false));
    CHECK(by_best->models.front().verdict == gates::Verdict::unchanged);
    CHECK(std::any_of(by_best->notes.begin(), by_best->notes.end(),
                      [](const std::string& n) { return n.find("best repetition") != std::string::npos; }));
    CHECK(nlohmann::json::parse(runner::render_ab(*by_best, runner::AbFormat::json, false))["launch_reading"] == "best");

    test::TempDir slow_dir("ab-replay-best-slow");
    auto slower = runner::replay_ab(file_of(disturbed(recorded("slow", 0.97, 10)), slow_dir), req);
    REQUIRE(slower);
    CHECK(slower->models.front().verdict == gates::Verdict::regressed);
}
