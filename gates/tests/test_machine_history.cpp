// History per machine (docs/gate.md, "Machines"): a run that knows its machine_id is judged
// against that machine's runs only; a pair whose history comes from other machines only is `new
// machine`; without ids on both sides nothing changes.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "gate_test_support.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/render.hpp"

using namespace perfgate;
using namespace perfgate::gates;
namespace fs = std::filesystem;

namespace {

const std::string kMachineA = "a1a1a1a1a1a1a1a1";
const std::string kMachineB = "b2b2b2b2b2b2b2b2";

ResultRow run_row(const std::string& machine, double decode, int day, const std::string& run) {
    ResultRow r = testing::history_row(decode, day, run);
    r.kernel = "6.1.0-28-cloud-amd64";
    r.machine_id = machine;
    r.machine_fingerprint = machine.empty() ? "" : "f0f0f0f0f0f0f0f0";
    return r;
}

// Six quiet runs on `machine` (decode about 60 tok/s), one file a day.
void write_history(const testing::TempDir& tmp, const std::string& machine, double level = 60.0,
                   const std::string& prefix = "h") {
    const double wobble[] = {1.002, 0.997, 1.004, 0.999, 1.001, 0.996};
    for (int i = 0; i < 6; ++i)
        REQUIRE(append_results_locked(tmp.sub(fmt::format("bench/cpu_cpu-epyc_2026-11-{:02}.csv", i + 1)),
                                      {run_row(machine, level * wobble[i], i + 1, fmt::format("{}{}", prefix, i))}));
}

GateOptions options(const testing::TempDir& tmp) {
    GateOptions o;
    o.benchmarks_dir = (tmp.path / "bench").string();
    o.thresholds_dir = testing::thresholds_dir();
    o.report_missing = false;
    o.empty_run = EmptyRun::first_run;  // as the runner gates a pair and a suite
    return o;
}

const PairReport& only_pair(const GateReport& r) {
    REQUIRE(r.pairs.size() == 1);
    return r.pairs.front();
}

// What a verdict is made of, without the paths of the files (they differ between copies).
std::string signature(const GateReport& r) {
    std::string s;
    for (const auto& p : r.pairs) {
        s += fmt::format("{}|{}|{}|{}|{}\n", p.runtime, p.model, p.harness, p.prompt_target_len.value_or(-1),
                         to_string(p.verdict));
        for (const auto& m : p.metrics)
            s += fmt::format("  {} {} change={} runs={} noise={} mde={} base={}\n", m.metric, to_string(m.verdict),
                             m.change.value_or(-99), m.history_runs, m.run_noise.value_or(-1),
                             m.min_detectable_effect.value_or(-1), m.baseline_value.value_or(-1));
    }
    return s + fmt::format("passed={} empty_run_failure={}\n", passed(r), r.empty_run_failure);
}

// A copy of a CSV with a machine_id column put first: a column the reader maps by name, so every
// other field reads as before. Record starts are found outside quoted fields.
std::string stamped(const std::string& text, const std::string& machine) {
    const std::string bom = "\xEF\xBB\xBF";
    const std::size_t start = text.rfind(bom, 0) == 0 ? bom.size() : 0;
    std::string out = text.substr(0, start) + "machine_id,";
    bool quoted = false;
    for (std::size_t i = start; i < text.size(); ++i) {
        const char c = text[i];
        out += c;
        if (c == '"') quoted = !quoted;
        if (c == '\n' && !quoted && i + 1 < text.size()) out += machine + ",";
    }
    return out;
}

bool judged(Verdict v) {
    return v == Verdict::regressed || v == Verdict::inconclusive || v == Verdict::improved || v == Verdict::unchanged;
}

}  // namespace

TEST_CASE("same machine: judged on its own runs, exactly as without ids", "[gates][machine]") {
    for (const double now : {60.0, 45.0, 75.0}) {
        testing::TempDir with_ids, without_ids;
        write_history(with_ids, kMachineA);
        write_history(without_ids, "");
        auto a = gate_rows({run_row(kMachineA, now, 10, "now")}, options(with_ids));
        auto b = gate_rows({run_row("", now, 10, "now")}, options(without_ids));
        REQUIRE(a);
        REQUIRE(b);
        INFO(render_text(*a));
        CHECK(signature(*a) == signature(*b));
        CHECK(only_pair(*a).metrics.front().history_runs == 6);
        if (now == 60.0) CHECK(only_pair(*a).verdict == Verdict::unchanged);
        if (now == 45.0) CHECK(only_pair(*a).verdict == Verdict::regressed);
    }
}

TEST_CASE("another machine's history only: new machine, measured and not judged, and the run passes", "[gates][machine]") {
    testing::TempDir tmp;
    write_history(tmp, kMachineA);
    // 25% slower than machine A: a regression if the two were one machine.
    auto report = gate_rows({run_row(kMachineB, 45.0, 10, "now")}, options(tmp));
    REQUIRE(report);
    const auto& p = only_pair(*report);
    CHECK(p.verdict == Verdict::new_machine);
    CHECK_FALSE(fails_gate(p.verdict));
    CHECK(passed(*report));
    CHECK(report->empty_run_failure.empty());
    CHECK(p.reason.find("new machine: no verdict") != std::string::npos);
    CHECK(p.reason.find("decode_tok_s 45.00") != std::string::npos);  // what was measured
    CHECK(p.reason.find("machine " + kMachineA) != std::string::npos);  // where the history came from
    CHECK(p.reason.find("cmake --workflow --preset cpu-baseline") != std::string::npos);
    CHECK(p.reason.find("perfgate ab") != std::string::npos);
    for (const auto& m : p.metrics) CHECK_FALSE(m.change);  // no ratio against another machine

    const auto text = render_text(*report);
    CHECK(text.find("new machine") != std::string::npos);
    CHECK(render_markdown(*report).find("new machine") != std::string::npos);
    CHECK(render_json(*report).find("\"new machine\"") != std::string::npos);
    const auto junit = render_junit(*report);
    CHECK(junit.find("<skipped") != std::string::npos);
    CHECK(junit.find("<failure") == std::string::npos);
    CHECK(verdict_counts(*report) == "1 pair new machine (no verdict)");

    // perfgate gate (EmptyRun::fail): a run that compared nothing still fails unless --allow-empty,
    // and the reason counts the new-machine pairs.
    auto o = options(tmp);
    o.empty_run = EmptyRun::fail;
    auto strict = gate_rows({run_row(kMachineB, 45.0, 10, "now")}, o);
    REQUIRE(strict);
    CHECK_FALSE(passed(*strict));
    CHECK(strict->empty_run_failure.find("1 new machine") != std::string::npos);
}

TEST_CASE("history without machine ids and a run that has one: new machine", "[gates][machine]") {
    testing::TempDir tmp;
    write_history(tmp, "");
    auto report = gate_rows({run_row(kMachineB, 45.0, 10, "now")}, options(tmp));
    REQUIRE(report);
    const auto& p = only_pair(*report);
    CHECK(p.verdict == Verdict::new_machine);
    CHECK(p.reason.find("6 rows without a machine id") != std::string::npos);
    CHECK(passed(*report));
}

TEST_CASE("no machine ids on either side: one history per host tag, as always", "[gates][machine]") {
    testing::TempDir tmp;
    write_history(tmp, "");
    auto report = gate_rows({run_row("", 45.0, 10, "now")}, options(tmp));
    REQUIRE(report);
    CHECK(only_pair(*report).verdict == Verdict::regressed);
    CHECK_FALSE(passed(*report));
    // A run without an id against a history that has ids is judged on all of it, too.
    testing::TempDir ids;
    write_history(ids, kMachineA);
    auto against_ids = gate_rows({run_row("", 45.0, 10, "now")}, options(ids));
    REQUIRE(against_ids);
    CHECK(only_pair(*against_ids).verdict == Verdict::regressed);
}

TEST_CASE("a history of two machines: only this machine's runs are its reference and its noise", "[gates][machine]") {
    testing::TempDir tmp;
    // Machine A about 60 tok/s on days 1-6; machine B about 40 tok/s on days 7-9 (newer files).
    write_history(tmp, kMachineA);
    for (int day = 7; day <= 9; ++day)
        REQUIRE(append_results_locked(tmp.sub(fmt::format("bench/cpu_cpu-epyc_2026-11-{:02}.csv", day)),
                                      {run_row(kMachineB, 40.0 + day * 0.1, day, fmt::format("b{}", day))}));
    auto on_a = gate_rows({run_row(kMachineA, 60.0, 10, "now")}, options(tmp));
    REQUIRE(on_a);
    const auto& p = only_pair(*on_a);
    CHECK(p.verdict == Verdict::unchanged);  // against B's 40 tok/s it would read +50%
    CHECK(p.metrics.front().history_runs == 6);
    CHECK(*p.metrics.front().baseline_value == Approx(60.0).epsilon(0.01));
    CHECK(p.baseline_date == "2026-11-06");
    // Machine B is judged against its own three runs.
    auto on_b = gate_rows({run_row(kMachineB, 40.8, 10, "now")}, options(tmp));
    REQUIRE(on_b);
    CHECK(testing::quiet(only_pair(*on_b).verdict));
    CHECK(only_pair(*on_b).metrics.front().history_runs == 3);
}

TEST_CASE("one machine, another fingerprint: judged, with a warning naming the kernel", "[gates][machine]") {
    testing::TempDir tmp;
    write_history(tmp, kMachineA);
    ResultRow now = run_row(kMachineA, 60.0, 10, "now");
    now.kernel = "6.1.0-31-cloud-amd64";
    now.machine_fingerprint = "0e0e0e0e0e0e0e0e";
    auto report = gate_rows({now}, options(tmp));
    REQUIRE(report);
    const auto& p = only_pair(*report);
    CHECK(p.verdict == Verdict::unchanged);
    REQUIRE(p.warnings.size() == 1);
    CHECK(p.warnings[0].find("machine fingerprint f0f0f0f0f0f0f0f0 -> 0e0e0e0e0e0e0e0e") != std::string::npos);
    CHECK(p.warnings[0].find("kernel 6.1.0-28-cloud-amd64 -> 6.1.0-31-cloud-amd64") != std::string::npos);
}

TEST_CASE("every committed and fixture CSV: the same verdicts with one machine id on all rows as with none",
          "[gates][machine][acceptance]") {
    for (const auto& folder : {std::string(PERFGATE_SOURCE_DIR) + "/benchmarks", testing::fixture_dir()}) {
        testing::TempDir tmp;
        std::vector<std::string> names;
        // Files recorded before machine identity, which this stamps with one: a file written with
        // the machine_id column already (the counted baseline of 2026-12-05) has its machines, and
        // its counted rows are keyed by build instead (the counted-pairs case above).
        for (const auto& e : fs::directory_iterator(folder))
            if (e.path().extension() == ".csv" &&
                testing::slurp(e.path().string()).substr(0, 2000).find("machine_id") == std::string::npos)
                names.push_back(e.path().filename().string());
        REQUIRE(names.size() >= 4);
        // Both sides read only those files: the files recorded with machine ids (the H200 fleet's)
        // would be history of the unstamped run alone.
        for (const auto& n : names) {
            testing::spit(tmp.sub("plain/" + n), testing::slurp(folder + "/" + n));
            testing::spit(tmp.sub("stamped/" + n), stamped(testing::slurp(folder + "/" + n), kMachineA));
        }
        for (const auto& n : names) {
            INFO(folder << " " << n);
            GateOptions plain;
            plain.results = {tmp.file("plain/" + n)};
            plain.benchmarks_dir = tmp.file("plain");
            plain.thresholds_dir = testing::thresholds_dir();
            GateOptions same = plain;
            same.results = {tmp.file("stamped/" + n)};
            same.benchmarks_dir = tmp.file("stamped");
            auto before = run_gate(plain), after = run_gate(same);
            REQUIRE(before.has_value() == after.has_value());
            if (!before) continue;
            CHECK(signature(*before) == signature(*after));

            // The same results from another machine: nothing is judged against these files.
            fs::create_directories(tmp.path / ("other-" + n) / "bench");
            for (const auto& h : names)
                if (h != n) fs::copy_file(folder + "/" + h, tmp.path / ("other-" + n) / "bench" / h);
            testing::spit(tmp.sub("other-" + n + "/results/" + n), stamped(testing::slurp(folder + "/" + n), kMachineB));
            GateOptions other = plain;
            other.results = {tmp.file("other-" + n + "/results/" + n)};
            other.benchmarks_dir = tmp.file("other-" + n + "/bench");
            other.empty_run = EmptyRun::first_run;
            auto moved = run_gate(other);
            REQUIRE(moved);
            std::map<std::string, Verdict> was;
            for (const auto& p : before->pairs) was[p.runtime + "/" + p.model + "/" + p.harness] = p.verdict;
            for (const auto& p : moved->pairs) {
                INFO(p.runtime << "/" << p.model << " " << to_string(p.verdict) << " " << p.reason);
                CHECK_FALSE(judged(p.verdict));
                const auto it = was.find(p.runtime + "/" + p.model + "/" + p.harness);
                const bool had_baseline = it != was.end() && judged(it->second);
                // A FAIL or SKIP now keeps its status verdict (a known failure elsewhere is none here).
                if (p.current_status != "ok") {
                    CHECK((p.verdict == Verdict::failed || p.verdict == Verdict::skipped));
                    if (had_baseline) CHECK(p.reason.find("other machines") != std::string::npos);
                    continue;
                }
                if (had_baseline) CHECK(p.verdict == Verdict::new_machine);
            }
        }
    }
}

namespace {

// A counted row (docs/instructions.md): instruction counts per token of one build, no rates.
ResultRow counted_row(const std::string& machine, double per_token, int day, const std::string& run,
                      const std::string& compiler = "GNU 12.2.0") {
    ResultRow r = run_row(machine, 1.0, day, run);
    r.runtime = "llama-bench-instructions";
    r.decode_tok_s.reset();
    r.prefill_tok_s.reset();
    r.decode_instructions_per_token = per_token;
    r.prefill_instructions_per_token = per_token / 4.5;
    r.runtime_commit = "de3ff815ea7d559ee917f063901b8986f038abc6";
    r.build_type = "Release, static, GGML_NATIVE=OFF";
    r.compiler = compiler;
    return r;
}

}  // namespace

TEST_CASE("counted pairs: another machine's counts of the same build are this machine's history (issue 45, item 5)",
          "[gates][machine][instructions]") {
    testing::TempDir tmp;
    const double wobble[] = {1.0, 1.0000004, 0.9999997, 1.0000001, 1.0, 0.9999999};
    for (int i = 0; i < 6; ++i)
        REQUIRE(append_results_locked(tmp.sub(fmt::format("bench/cpu_cpu-epyc_2026-11-{:02}.csv", i + 1)),
                                      {counted_row(kMachineA, 15'335'918 * wobble[i], i + 1, fmt::format("c{}", i))}));
    // Machine B counts the same build: +0.003%, as a fresh VM of another CPU model did.
    auto same = gate_rows({counted_row(kMachineB, 15'336'379, 10, "now")}, options(tmp));
    REQUIRE(same);
    INFO(render_text(*same));
    CHECK(only_pair(*same).verdict == Verdict::unchanged);  // before: new machine
    CHECK(passed(*same));
    // One percent more work per token on machine B is a regression, not "new machine".
    auto more = gate_rows({counted_row(kMachineB, 15'335'918 * 1.01, 10, "now")}, options(tmp));
    REQUIRE(more);
    CHECK(only_pair(*more).verdict == Verdict::regressed);
    // Another build (another compiler) is not that history: its counts are its own.
    auto other_build = gate_rows({counted_row(kMachineB, 15'335'918, 10, "now", "Clang 14.0.6")}, options(tmp));
    REQUIRE(other_build);
    CHECK(only_pair(*other_build).verdict == Verdict::new_machine);
    // Timed rows keep their machine: machine B's decode is not judged against machine A's.
    testing::TempDir timed;
    write_history(timed, kMachineA);
    CHECK(only_pair(*gate_rows({run_row(kMachineB, 45.0, 10, "now")}, options(timed))).verdict == Verdict::new_machine);
}

TEST_CASE("local history: a second run on a new machine is judged against its first, never at a base ref",
          "[gates][machine]") {
    // Issue 49 item 1: the main job records into the build folder and the gate read only the
    // reviewed benchmarks/, so a machine that ran it every day was never judged.
    testing::TempDir tmp;
    write_history(tmp, kMachineB);  // the reviewed history: another machine's runs
    // This machine's first run, recorded into its local results folder.
    REQUIRE(append_results_locked(tmp.sub("local/cpu_cpu-epyc_2026-11-09.csv"), {run_row(kMachineA, 60.0, 9, "first")}));
    GateOptions o = options(tmp);
    const ResultRow second = run_row(kMachineA, 60.3, 10, "second");
    auto without = gate_rows({second}, o);
    REQUIRE(without);
    CHECK(only_pair(*without).verdict == Verdict::new_machine);

    o.local_history_dir = tmp.file("local");
    auto with = gate_rows({second}, o);
    REQUIRE(with);
    INFO(render_text(*with));
    // Judged on one earlier run: the fallback rule, whose prior cannot bound the change yet.
    CHECK(only_pair(*with).verdict == Verdict::within_noise);
    CHECK(std::any_of(with->notes.begin(), with->notes.end(), [](const std::string& n) {
        return n.find("this machine's own earlier runs in") != std::string::npos &&
               n.find("a pull request's gate reads only the latter") != std::string::npos;
    }));
    // The same folder as the reviewed history is read once, and named in no such note.
    GateOptions same = o;
    same.local_history_dir = same.benchmarks_dir;
    auto once = gate_rows({second}, same);
    REQUIRE(once);
    CHECK(std::none_of(once->notes.begin(), once->notes.end(),
                       [](const std::string& n) { return n.find("own earlier runs") != std::string::npos; }));
}
