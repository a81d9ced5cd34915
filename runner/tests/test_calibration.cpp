// perfgate calibrate as a library (runner/calibrate.hpp): from the host's history and by an A/A
// campaign of a stub runtime on a replayed host; what is written, what is kept, what is refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "perfgate/gates/thresholds.hpp"
#include "perfgate/perf/host_context.hpp"
#include "perfgate/runner/calibrate.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;
using namespace perfgate::runner;
namespace fs = std::filesystem;

namespace {
// A folder with the project's default.json and h200.json, and benchmarks/ with the named H200 runs.
fs::path h200_project(const std::string& name, const std::vector<std::string>& csvs) {
    const fs::path tmp = test::fresh_dir("perfgate-runner-tests", name);
    fs::create_directories(tmp / "thresholds");
    fs::create_directories(tmp / "benchmarks");
    for (const char* f : {"default.json", "h200.json"})
        fs::copy_file(test::source_path("thresholds") / f, tmp / "thresholds" / f);
    for (const auto& csv : csvs) fs::copy_file(test::source_path("benchmarks") / csv, tmp / "benchmarks" / csv);
    return tmp;
}

HistoryCalibrationRequest history_request(const fs::path& project) {
    HistoryCalibrationRequest r;
    r.benchmarks_dir = (project / "benchmarks").string();
    r.thresholds_dir = (project / "thresholds").string();
    r.host = "h200";
    return r;
}

gates::ThresholdFile parsed(const fs::path& file) {
    auto f = gates::parse_threshold_file(test::read_file(file), file.string());
    REQUIRE(f);
    return *f;
}
}  // namespace

TEST_CASE("calibrate from history: writes <host>.json from the runs and keeps its memory bandwidth", "[calibrate]") {
    const fs::path project = h200_project("calibrate-history", {"cuda_h200_2026-11-29.csv", "cuda_h200_2026-12-01.csv"});
    const auto bandwidth = parsed(project / "thresholds/h200.json").memory_bandwidth;
    REQUIRE(bandwidth);
    std::ostringstream out;
    auto written = calibrate_from_history(history_request(project), out);
    REQUIRE(written);
    CHECK(*written == project / "thresholds/h200.json");
    const auto file = parsed(*written);
    REQUIRE(file.memory_bandwidth);
    CHECK(file.memory_bandwidth->bytes_per_s == bandwidth->bytes_per_s);
    CHECK_FALSE(file.rules.empty());
    CHECK(out.str().find("llama-3.1-8b") != std::string::npos);  // the table went to `out`

    auto elsewhere = history_request(project);
    elsewhere.output = (project / "other.json").string();
    std::ostringstream ignored;
    auto to_output = calibrate_from_history(elsewhere, ignored);
    REQUIRE(to_output);
    CHECK(*to_output == project / "other.json");
    CHECK(fs::exists(project / "other.json"));
}

TEST_CASE("calibrate from history: too few runs or none of the host write nothing", "[calibrate]") {
    const fs::path project = h200_project("calibrate-history-short", {"cuda_h200_2026-11-29.csv"});  // 2 runs
    const std::string before = test::read_file(project / "thresholds/h200.json");
    std::ostringstream out;
    auto short_history = calibrate_from_history(history_request(project), out);
    REQUIRE_FALSE(short_history);
    CHECK(short_history.error().message == "host h200: no pair has 5 runs yet; run the suite more often (nothing written)");
    CHECK(test::read_file(project / "thresholds/h200.json") == before);

    auto other_host = history_request(project);
    other_host.host = "nohost";
    auto none = calibrate_from_history(other_host, out);
    REQUIRE_FALSE(none);
    CHECK(none.error().message == (project / "benchmarks").string() + ": no ok run of host nohost to calibrate from");
    CHECK_FALSE(fs::exists(project / "thresholds/nohost.json"));

    auto weak = history_request(project);
    weak.options.rule.power = 0.5;
    auto refused = calibrate_from_history(weak, out);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message == "--power must be in (0.5, 1)");
}

TEST_CASE("calibrate by campaign: the request's ranges are checked before anything runs", "[calibrate]") {
    CampaignCalibrationRequest r;
    r.suite = "no-such-suite.json";  // never read: the checks come first
    std::ostringstream log, out;
    r.runs = 2;
    auto runs = calibrate_by_campaign(r, log, out);
    REQUIRE_FALSE(runs);
    CHECK(runs.error().message == "--runs must be at least 3 (noise needs 3 readings per pair)");
    r.runs = 3;
    r.options.target_false_alarm = 0;
    auto target = calibrate_by_campaign(r, log, out);
    REQUIRE_FALSE(target);
    CHECK(target.error().message == "--target-false-alarm must be in (0, 0.5]");
    r.options.target_false_alarm = 0.01;
    r.options.power = 1;
    auto power = calibrate_by_campaign(r, log, out);
    REQUIRE_FALSE(power);
    CHECK(power.error().message == "--power must be in (0.5, 1)");
    r.options.power = 0.95;
    auto suite = calibrate_by_campaign(r, log, out);
    REQUIRE_FALSE(suite);
    CHECK(suite.error().message.find("no-such-suite.json") != std::string::npos);
    CHECK(log.str().empty());
}

TEST_CASE("calibrate by campaign: interleaved runs of a stub runtime, a skipped pair tried once", "[calibrate]") {
    // A replayed CPU host with 31 GiB and a stub llama-bench printing a recorded run (prefill and
    // decode): "tiny" fits, "big60" does not.
    const fs::path tmp = test::fresh_dir("perfgate-runner-tests", "calibrate-campaign");
    std::ofstream(tmp / "suite.json") << R"({
      "suite": "calib", "backend": "cpu", "replay": true,
      "workload": {"repetitions": 1, "timeout_s": 10},
      "models": [{"name": "tiny", "checkpoint": "models/tiny", "format": "Q8_0", "weight_bytes": 1000},
                 {"name": "big60", "checkpoint": "models/big60", "format": "MXFP4", "weight_gb": 60}],
      "runtimes": [{"name": "lb", "kind": "llama-bench", "binary": ")" +
                                             test::source_path("perf/tests/data/stub-runtime.sh").string() + R"(",
                    "args": ["print", "llama-bench-tiny-llama-ci.json"]}]
    })";
    perf::HostContext host;
    host.backend = "cpu";
    host.host = "stub-host";
    host.usable_memory_bytes = 31ull << 30;
    host.replay = "recorded";
    REQUIRE(perf::write_host_context(tmp / "host.json", host));
    CampaignCalibrationRequest r;
    r.suite = tmp / "suite.json";
    r.runs = 3;
    r.thresholds_dir = (tmp / "thresholds").string();
    fs::create_directories(tmp / "thresholds");
    r.host.host_json = tmp / "host.json";
    std::ostringstream log, out;
    auto written = calibrate_by_campaign(r, log, out);
    INFO((written ? log.str() : written.error().message + "\n" + log.str()));
    REQUIRE(written);
    CHECK(*written == tmp / "thresholds/stub-host.json");
    CHECK_FALSE(parsed(*written).rules.empty());
    const std::string text = log.str();
    for (const char* run : {"run 1/3 lb/tiny: ok", "run 2/3 lb/tiny: ok", "run 3/3 lb/tiny: ok"})
        CHECK(text.find(run) != std::string::npos);
    CHECK(text.find("run 1/3 lb/big60: SKIP") != std::string::npos);
    CHECK(text.find("run 2/3 lb/big60") == std::string::npos);  // a skip is not tried again
    CHECK(text.find("run 1/3 lb/big60") < text.find("run 2/3 lb/tiny"));  // interleaved rounds
    CHECK(out.str().find("tiny") != std::string::npos);

    r.pairs = {"lb"};
    auto bad_pair = calibrate_by_campaign(r, log, out);
    REQUIRE_FALSE(bad_pair);
    CHECK(bad_pair.error().message == "--pair wants RUNTIME/MODEL, got \"lb\"");
    r.pairs = {"lb/big60"};
    auto nothing = calibrate_by_campaign(r, log, out);
    REQUIRE_FALSE(nothing);
    CHECK(nothing.error().message == "no pair of the suite ran on this host; nothing to calibrate");
    r.pairs.clear();
    r.binaries = {"lb"};
    auto bad_binary = calibrate_by_campaign(r, log, out);
    REQUIRE_FALSE(bad_binary);
    CHECK(bad_binary.error().message == "--binary wants RUNTIME=PATH, got \"lb\"");
}
