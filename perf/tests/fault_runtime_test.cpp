// Fault tests: runtimes that crash, flood their output or print bytes that are not text, through
// the launcher and through the pair runner (classification and the recorded row).
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/perf/adapters.hpp"
#include "perfgate/perf/launcher.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
namespace fs = std::filesystem;

namespace {

std::string stub() { return (test::data() / "stub-runtime.sh").string(); }

// The replayed Strix Halo's facts, without a device name so that the runtime's own is recorded.
HostContext host_without_device() {
    HostContext h;
    h.backend = "rocm";
    h.host = "strixhalo-gfx1151";
    h.device_arch = "gfx1151";
    h.device_memory_bytes = 96ull << 30;
    h.usable_memory_bytes = 80ull << 30;
    h.memory_is_device = true;
    h.date = "2026-11-29";
    h.run_id = "fault-test";
    h.replay = "fault_runtime_test";
    return h;
}

PairOutcome run(const std::string& runtime, const fs::path& results) {
    auto suite = load_suite(test::data() / "stub-fault-suite.json");
    REQUIRE(suite);
    PairRequest req;
    req.runtime = runtime;
    req.model = "small";
    req.host = host_without_device();
    req.results_dir = results;
    std::ostringstream log, out;
    auto o = run_pair(*suite, req, log, out);
    REQUIRE(o);
    return *o;
}

// Peak resident memory of this process (kB) since the last reset_peak_rss().
long peak_rss_kb() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}
long current_rss_kb() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}
bool reset_peak_rss() { return static_cast<bool>(std::ofstream("/proc/self/clear_refs") << "5"); }

bool printable_one_line(const std::string& s) {
    if (perfgate::find_binary_or_invalid_utf8(s)) return false;
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7f) return false;
    return true;
}

}  // namespace

TEST_CASE("a runtime that dies of SIGSEGV is FAIL:bench, with the signal named", "[fault][launcher][pair]") {
    LaunchRequest r;
    r.program = stub();
    r.args = {"segv"};
    const auto res = launch(r);
    REQUIRE(res.term_signal);
    CHECK(*res.term_signal == SIGSEGV);
    CHECK(res.shell_status() == 139);

    const auto results = test::temp_dir("fault-segv");
    const auto o = run("stub-segv", results);
    CHECK(o.status.text == "FAIL:bench");  // a crash is a failure, never an out-of-memory skip
    CHECK_THAT(o.reason, Catch::StartsWith("ended by signal 11 (SIGSEGV)"));
    CHECK_THAT(o.reason, Catch::Contains("output ends: loading model..."));
    auto csv = perfgate::read_results_csv((results / "rocm_strixhalo-gfx1151_2026-11-29_replay.csv").string());
    REQUIRE(csv);
    REQUIRE(csv->rows.size() == 1);
    CHECK(csv->rows[0].status.text == "FAIL:bench");
}

TEST_CASE("a runtime flooding its output is captured within the bound and still classified", "[fault][launcher][pair]") {
    // stdout; stderr gets half of it. 24 times the 4 MiB kept per stream: enough to show the bound,
    // small enough that the sanitizer build reads it in well under a minute.
    const std::size_t flood = 96u << 20;
    LaunchRequest r;
    r.program = stub();
    r.args = {"flood", "mlxcel-generate_m1max_kubesimplify-blog.txt"};
    r.env = {{"STUB_FLOOD_BYTES", std::to_string(flood)}};
    r.timeout = std::chrono::seconds(120);
    const bool can_measure_peak = reset_peak_rss();
    const long rss_before = current_rss_kb();
    const auto res = launch(r);
    const long peak = peak_rss_kb();
    REQUIRE(res.exit_code);
    CHECK(*res.exit_code == 0);
    CHECK(res.truncated);
    // 4 MiB kept per stream (head and tail halves) plus the mark standing for the cut.
    CHECK(res.out.size() <= r.capture_limit + 64);
    CHECK(res.err.size() <= r.capture_limit + 64);
    CHECK_THAT(res.out, Catch::StartsWith("flood: the runtime prints"));
    CHECK_THAT(res.out, Catch::Contains("[Generated 200 tokens in 3.19s = 62.68 tok/s]"));  // the tail
    // What was kept plus what the mark says was dropped is exactly what the stub printed.
    const auto mark = res.out.find("\n~~ perfgate: ");
    REQUIRE(mark != std::string::npos);
    const std::size_t dropped = std::stoull(res.out.substr(mark + 14));
    const std::string mark_text = dropped_output_mark(dropped);
    CHECK(res.out.substr(mark, mark_text.size()) == mark_text);
    const std::string printed_tail = test::recorded(test::fixtures() / "probe-outputs/mlxcel-generate_m1max_kubesimplify-blog.txt");
    CHECK(res.out.size() - mark_text.size() + dropped == flood + printed_tail.size());
    if (can_measure_peak) CHECK(peak - rss_before < 64 * 1024);  // bounded: far below the 144 MiB printed
    std::cout << "[fault] flood: printed " << flood << " + " << flood / 2 << " bytes (stdout + stderr) in "
              << res.wall_seconds << " s; captured " << res.out.size() << " + " << res.err.size()
              << " bytes; peak RSS growth " << (can_measure_peak ? std::to_string(peak - rss_before) + " kB" : "n/a")
              << '\n';

    // Through the pair runner: the decode number at the very end of the flood is still found.
    const auto results = test::temp_dir("fault-flood");
    const auto t0 = std::chrono::steady_clock::now();
    const auto o = run("stub-flood", results);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(o.status.text == "ok");
    REQUIRE(o.row);
    CHECK(o.row->decode_tok_s == Approx(62.68));
    std::cout << "[fault] flood through the pair runner: ok, 62.68 tok/s, " << took << " s\n";
}

TEST_CASE("bytes that are not UTF-8 never reach the row or the reason unprintable", "[fault][pair]") {
    // A failing runtime: the reason quotes its output, made printable and kept on one line.
    const auto results = test::temp_dir("fault-binary");
    const auto failed = run("stub-binary", results);
    CHECK(failed.status.text == "FAIL:bench");
    INFO(failed.reason);
    CHECK_THAT(failed.reason, Catch::Contains("crashed"));
    CHECK(printable_one_line(failed.reason));

    // A runtime that measures fine but names its device in bytes that are not text.
    const auto ok = run("stub-binary-device", results);
    CHECK(ok.status.text == "ok");
    REQUIRE(ok.row);
    CHECK_THAT(ok.row->device, Catch::Contains("Radeon"));
    CHECK(printable_one_line(ok.row->device));

    // The file holding both rows is valid UTF-8 and reads back (the reader refuses anything else).
    const auto file = results / "rocm_strixhalo-gfx1151_2026-11-29_replay.csv";
    CHECK_FALSE(perfgate::find_binary_or_invalid_utf8(test::slurp(file)));
    auto csv = perfgate::read_results_csv(file.string());
    INFO((csv ? "" : csv.error().message));
    REQUIRE(csv);
    REQUIRE(csv->rows.size() == 2);
    CHECK(csv->rows[1].decode_tok_s.has_value());
}

TEST_CASE("a program path with spaces and arguments with shell syntax arrive verbatim", "[fault][launcher][security]") {
    // A copy of the stub under a folder whose name has a space and a ';': no shell splits or runs it.
    const auto dir = test::temp_dir("path with spaces; rm -rf x");
    const auto program = dir / "my runtime;echo pwned";
    {
        std::ofstream f(program);
        f << "#!/bin/sh\nfor a in \"$0\" \"$@\"; do printf '[%s]\\n' \"$a\"; done\n";
    }
    fs::permissions(program, fs::perms::owner_all);
    LaunchRequest r;
    r.program = program.string();
    r.args = {"-m", "model; touch " + (dir / "created").string(), "$(id)", "a b", "|", "'q'", ""};
    const auto res = launch(r);
    REQUIRE(res.started);
    CHECK(res.exit_code == 0);
    CHECK(res.out == "[" + program.string() + "]\n[-m]\n[model; touch " + (dir / "created").string() +
                         "]\n[$(id)]\n[a b]\n[|]\n['q']\n[]\n");
    CHECK_FALSE(fs::exists(dir / "created"));
}

namespace {
// The pair request of the llama-bench fault suites: model "tiny" of `runtime` on a CPU host.
PairRequest tiny_cpu_pair(const std::string& runtime, const std::filesystem::path& results_dir) {
    PairRequest req;
    req.runtime = runtime;
    req.model = "tiny";
    req.host.backend = "cpu";
    req.host.host = "cpu-epyc";
    req.host.usable_memory_bytes = 1ull << 30;
    req.host.date = "2026-11-29";
    req.results_dir = results_dir;
    return req;
}
}  // namespace

TEST_CASE("llama-bench JSON after more than 4 MiB of output still parses past the cut", "[fault][launcher][pair][bounds]") {
    // Hardening issue, item 10: the capture keeps the first and last 2 MiB of a stream; the mark
    // standing for the cut once began with '[' and was parsed as the start of llama-bench's JSON,
    // so the pair ended FAIL:no_output.
    for (char opener : {'[', '{', '<', ',', '"'})
        CHECK(dropped_output_mark(123456).find(opener) == std::string::npos);

    LaunchRequest r;
    r.program = stub();
    r.args = {"flood-json", "llama-bench-tiny-llama-ci.json"};
    r.env = {{"STUB_FLOOD_BYTES", std::to_string(5u << 20)}};
    const auto res = launch(r);
    REQUIRE(res.exit_code);
    CHECK(*res.exit_code == 0);
    CHECK(res.truncated);  // the JSON is only in the tail: the head is the log, the middle dropped
    CHECK(res.out.size() <= r.capture_limit + dropped_output_mark(5u << 20).size());
    CHECK_THAT(res.out, Catch::Contains("bytes of output dropped here"));
    const auto m = parse_llama_bench_json(res.out);
    INFO((m ? std::string() : m.error().message));
    REQUIRE(m);
    REQUIRE(m->decode_tok_s);
    CHECK(*m->decode_tok_s > 0);

    // Through the pair runner: the row is the one the same JSON gives without the flood.
    auto suite = parse_suite(R"({
      "suite": "floodjson", "backend": "cpu",
      "workload": {"repetitions": 1, "timeout_s": 60},
      "models": [{"name": "tiny", "checkpoint": "models/tiny", "format": "Q8_0", "weight_bytes": 1000}],
      "runtimes": [{"name": "flooded", "kind": "llama-bench", "binary": "./stub-runtime.sh",
                    "args": ["flood-json", "llama-bench-tiny-llama-ci.json"]},
                   {"name": "plain", "kind": "llama-bench", "binary": "./stub-runtime.sh",
                    "args": ["print", "llama-bench-tiny-llama-ci.json"]}]
    })", "floodjson.json", test::data());
    REQUIRE(suite);
    auto pair = [&](const std::string& runtime) {
        const PairRequest req = tiny_cpu_pair(runtime, test::temp_dir("fault-flood-json"));
        std::ostringstream log, out;
        auto o = run_pair(*suite, req, log, out);
        REQUIRE(o);
        return *o;
    };
    const auto flooded = pair("flooded");
    const auto plain = pair("plain");
    INFO(flooded.reason);
    CHECK(flooded.status.text == "ok");
    REQUIRE(flooded.row);
    REQUIRE(plain.row);
    REQUIRE(flooded.row->decode_tok_s);
    CHECK(flooded.row->decode_tok_s == plain.row->decode_tok_s);
    CHECK(flooded.row->prefill_tok_s == plain.row->prefill_tok_s);
    CHECK(flooded.row->decode_tok_s_samples == plain.row->decode_tok_s_samples);
}

TEST_CASE("llama-bench output that cannot be read ends the pair FAIL:no_output, saying why", "[fault][pair][llama-bench]") {
    // Issue 48 item 21: docs/reliability.md said FAIL:bench for a pair whose llama-bench JSON is
    // refused, where the runner records FAIL:no_output (exit 0, no reading: mlxcel's rule,
    // classify.hpp), and a string sample was named "nan". The pair's reason quotes what was wrong.
    const auto real = test::slurp(test::data() / "recorded/llama-bench-tiny-llama-ci.json");
    auto doc = nlohmann::json::parse(real);
    doc[1]["samples_ts"][0] = "fast";
    const auto dir = test::temp_dir("fault-unreadable-json");
    std::ofstream(dir / "string-sample.json") << doc.dump(1);
    const auto open = real.find('{');
    std::ofstream(dir / "nested.json") << real.substr(0, open + 1) << "\"extra\": " << std::string(1000, '[')
                                       << std::string(1000, ']') << ", " << real.substr(open + 1);
    auto suite = parse_suite(R"({
      "suite": "unreadable", "backend": "cpu",
      "workload": {"repetitions": 1, "timeout_s": 60},
      "models": [{"name": "tiny", "checkpoint": "models/tiny", "format": "Q8_0", "weight_bytes": 1000}],
      "runtimes": [{"name": "string-sample", "kind": "llama-bench", "binary": "./stub-runtime.sh",
                    "args": ["print", "string-sample.json"], "env": {"PERFGATE_FIXTURES": ")" + dir.string() + R"("}},
                   {"name": "nested", "kind": "llama-bench", "binary": "./stub-runtime.sh",
                    "args": ["print", "nested.json"], "env": {"PERFGATE_FIXTURES": ")" + dir.string() + R"("}}]
    })", "unreadable.json", test::data());
    REQUIRE(suite);
    for (const auto& [runtime, why] : {std::pair<std::string, std::string>{"string-sample", "samples_ts entry \"fast\" is not a number"},
                                       {"nested", "nested deeper than 64 levels"}}) {
        const PairRequest req = tiny_cpu_pair(runtime, test::temp_dir("fault-unreadable-json-" + runtime));
        std::ostringstream log, out;
        auto o = run_pair(*suite, req, log, out);
        REQUIRE(o);
        INFO(o->reason);
        CHECK(o->status.text == "FAIL:no_output");
        CHECK_THAT(o->reason, Catch::Contains(why));
        CHECK(o->reason.find("entry nan") == std::string::npos);
    }
}
