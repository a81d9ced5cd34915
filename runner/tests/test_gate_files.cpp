// perfgate gate as a library (runner/gate_files.hpp): the default folders come from the gate root,
// given folders must exist, and the command's option rules are errors with a clear message.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "perfgate/core/csv.hpp"
#include "perfgate/perf/result_files.hpp"
#include "perfgate/runner/gate_files.hpp"
#include "perfgate/runner/results_as_csv.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;
using namespace perfgate::runner;
namespace fs = std::filesystem;

namespace {
const fs::path mlxcel_fixtures = test::fixture("mlxcel-benchmarks");

// The ROCm fixture as the next day's run, in its own folder (the gate's current run).
std::string next_day_results(const fs::path& dir) {
    std::string text = test::read_file(mlxcel_fixtures / "rocm_strixhalo-gfx1151_2026-09-30.csv");
    for (auto at = text.find("2026-09-30"); at != std::string::npos; at = text.find("2026-09-30", at))
        text.replace(at, 10, "2026-10-01");
    const fs::path file = dir / "rocm_strixhalo-gfx1151_2026-10-01.csv";
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
}

GateFilesRequest request_for(const std::string& results) {
    GateFilesRequest r;
    r.options.results = {results};
    r.benchmarks_dir = mlxcel_fixtures.string();
    r.thresholds_dir = test::source_path("thresholds").string();
    return r;
}
}  // namespace

TEST_CASE("gate folders: defaults from the nearest folder above with benchmarks/ or thresholds/", "[gate-files]") {
    const fs::path tmp = test::fresh_dir("perfgate-runner-tests", "gate-folders");
    fs::create_directories(tmp / "proj/thresholds");
    fs::create_directories(tmp / "proj/build/deep");
    auto defaults = resolve_gate_folders("", "", tmp / "proj/build/deep");
    REQUIRE(defaults);
    CHECK(defaults->benchmarks_dir == (tmp / "proj/benchmarks").string());  // may be missing: a first run
    CHECK(defaults->thresholds_dir == (tmp / "proj/thresholds").string());

    // A given folder is taken as it is, and only the other one comes from the root.
    auto mixed = resolve_gate_folders(mlxcel_fixtures.string(), "", tmp / "proj");
    REQUIRE(mixed);
    CHECK(mixed->benchmarks_dir == mlxcel_fixtures.string());
    CHECK(mixed->thresholds_dir == (tmp / "proj/thresholds").string());
}

TEST_CASE("gate folders: a given folder must exist, and without a root the defaults are an error", "[gate-files]") {
    const fs::path tmp = test::fresh_dir("perfgate-runner-tests", "gate-folders-bad");
    auto typo = resolve_gate_folders((tmp / "benchmakrs").string(), tmp.string(), tmp);
    REQUIRE_FALSE(typo);
    CHECK(typo.error().message == "--benchmarks-dir " + (tmp / "benchmakrs").string() + ": no such folder");
    auto thr = resolve_gate_folders(tmp.string(), (tmp / "nope").string(), tmp);
    REQUIRE_FALSE(thr);
    CHECK(thr.error().message == "--thresholds-dir " + (tmp / "nope").string() + ": no such folder");
    // Both given: no root is needed, even where none can be found.
    CHECK(resolve_gate_folders(tmp.string(), tmp.string(), fs::path()));
    auto rootless = resolve_gate_folders(tmp.string(), "", fs::path());
    REQUIRE_FALSE(rootless);
    CHECK(rootless.error().message.find("no benchmarks/ or thresholds/ folder") == 0);
}

TEST_CASE("gate_files: a blank --baseline-ref, --suite without a ref and an unknown --test are errors", "[gate-files]") {
    const fs::path tmp = test::fresh_dir("perfgate-runner-tests", "gate-files-options");
    const std::string results = next_day_results(tmp);
    auto blank = request_for(results);
    blank.baseline_ref = " \n";
    auto r1 = gate_files(blank);
    REQUIRE_FALSE(r1);
    CHECK(r1.error().message.find("--baseline-ref is empty") == 0);
    auto suite = request_for(results);
    suite.suite = "perf/suites/cpu.json";
    auto r2 = gate_files(suite);
    REQUIRE_FALSE(r2);
    CHECK(r2.error().message.find("--suite needs --baseline-ref") == 0);
    auto test = request_for(results);
    test.test = "t-test";
    auto r3 = gate_files(test);
    REQUIRE_FALSE(r3);
    CHECK(r3.error().message == "unknown --test t-test");
}

TEST_CASE("gate_files: the next day's unchanged run passes against its baseline, --allow-empty decides an empty one",
          "[gate-files]") {
    const fs::path tmp = test::fresh_dir("perfgate-runner-tests", "gate-files-run");
    const std::string results = next_day_results(tmp);
    auto report = gate_files(request_for(results));
    REQUIRE(report);
    CHECK(report->empty_run_failure.empty());
    CHECK_FALSE(gates::compared_nothing(*report));

    fs::create_directories(tmp / "empty-history");
    auto first = request_for(results);
    first.benchmarks_dir = (tmp / "empty-history").string();
    auto failing = gate_files(first);
    REQUIRE(failing);
    CHECK_FALSE(failing->empty_run_failure.empty());  // every pair new: fails unless allowed
    first.allow_empty = true;
    auto allowed = gate_files(first);
    REQUIRE(allowed);
    CHECK(allowed->empty_run_failure.empty());
}

TEST_CASE("gate_files: llama-bench's own json, jsonl, csv and sql of one run get one verdict, named by the user's file",
          "[gate-files][llama-bench]") {
    const auto outputs = [](const std::string& name) {
        return test::source_path("perf/tests/data/recorded/llama-bench-outputs/" + name).string();
    };
    // The history: run A in perfgate's schema, a day earlier, filed under host h.
    const fs::path tmp = test::fresh_dir("perfgate-runner-tests", "gate-files-llama-bench");
    fs::create_directories(tmp / "history");
    auto a = ResultsAsCsv::make({outputs("run-a.json")}, "h");
    REQUIRE(a);
    {
        auto rows = perfgate::read_results_csv(a->csv_paths()[0]);
        REQUIRE(rows);
        for (auto& r : rows->rows) r.date = "2026-11-01", r.timestamp = "2026-11-01T10:00:00Z", r.run_id = "a";
        REQUIRE(write_rows_csv((tmp / "history").string(), rows->rows));
    }
    const auto judge = [&](const std::string& file, const std::string& host) {
        GateFilesRequest r;
        r.options.results = {outputs(file)};
        r.options.host = host;
        r.benchmarks_dir = (tmp / "history").string();
        r.thresholds_dir = test::source_path("thresholds").string();
        return gate_files(r);
    };
    auto missing_host = judge("run-b.json", "");
    REQUIRE_FALSE(missing_host);
    CHECK_THAT(missing_host.error().message, Catch::Contains("run-b.json: llama-bench -o json output names no host") &&
                                                 Catch::Contains("--host"));
    std::vector<gates::GateReport> reports;
    for (const char* file : {"run-b.json", "run-b.jsonl", "run-b.csv", "run-b.sql"}) {
        INFO(file);
        auto report = judge(file, "h");
        REQUIRE(report);
        REQUIRE(report->pairs.size() == 1);
        // Sources name the user's file, not the private copy; a note says how it was read.
        CHECK_THAT(report->pairs[0].current_source, Catch::StartsWith(outputs(file)));
        CHECK(std::any_of(report->notes.begin(), report->notes.end(),
                          [&](const std::string& n) { return n.find(outputs(file) + " read as llama-bench -o") == 0; }));
        CHECK(report->pairs[0].verdict != gates::Verdict::new_pair);  // judged against run A's history
        reports.push_back(*report);
    }
    // One set of readings in three formats — llama-bench's json, the same objects as JSON lines, and
    // perfgate's CSV of the same rows — gets one verdict, metric by metric. (run-b.jsonl,
    // run-b.csv and run-b.sql above were separate llama-bench runs: only their shape is run-b.json's.)
    const auto doc = nlohmann::json::parse(test::read_file(outputs("run-b.json")));
    {
        std::ofstream lines(tmp / "same.jsonl", std::ios::binary);
        for (const auto& object : doc) lines << object.dump() << '\n';
    }
    fs::create_directories(tmp / "csv");
    auto b = perf::read_result_file(outputs("run-b.json"), "h");
    REQUIRE(b);
    auto csv = write_rows_csv((tmp / "csv").string(), b->rows);
    REQUIRE(csv);
    const auto judge_path = [&](const std::string& path) {
        GateFilesRequest r;
        r.options.results = {path};
        r.options.host = "h";
        r.benchmarks_dir = (tmp / "history").string();
        r.thresholds_dir = test::source_path("thresholds").string();
        auto report = gate_files(r);
        REQUIRE(report);
        REQUIRE(report->pairs.size() == 1);
        return report->pairs[0];
    };
    const auto json = judge_path(outputs("run-b.json"));
    for (const auto& other : {judge_path((tmp / "same.jsonl").string()), judge_path(*csv)}) {
        CHECK(other.verdict == json.verdict);
        REQUIRE(other.metrics.size() == json.metrics.size());
        for (std::size_t i = 0; i < json.metrics.size(); ++i) {
            CHECK(other.metrics[i].verdict == json.metrics[i].verdict);
            CHECK(other.metrics[i].change == json.metrics[i].change);
        }
    }
}
