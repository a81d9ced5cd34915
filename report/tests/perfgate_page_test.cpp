// A page from perfgate's own schema (the shape a cpu-perf run writes): samples, provenance columns,
// synthetic models, commands, roofline and charts with history.
#include <algorithm>
#include <cstdlib>

#include <catch2/catch.hpp>
#include <boost/filesystem.hpp>
#include <fmt/format.h>

#include "escape.hpp"
#include "gnuplot.hpp"
#include "perfgate/report/make_report.hpp"
#include "report_test_support.hpp"

using namespace perfgate;
using namespace perfgate::report;
namespace fs = boost::filesystem;

namespace {

ResultRow cpu_row(const std::string& runtime, const std::string& model, std::vector<double> decode, std::vector<double> prefill,
                  const std::string& date) {
    ResultRow r;
    r.model = model;
    r.model_path = "/models/" + model + ".gguf";
    r.runtime = runtime;
    r.backend = "cpu";
    r.host = "cpu-testbox";
    r.date = date;
    r.hardware = "AMD_EPYC_Test_CPU_64GB";
    r.device = "AMD EPYC Test CPU";
    r.cpu_model = "AMD EPYC Test CPU";
    r.host_memory_bytes = 68719476736ull;
    r.uma = false;
    r.os = "Debian GNU/Linux 12 (bookworm)";
    r.kernel = "6.1.0-test";
    r.compiler = "g++ 12.2.0";
    r.runtime_version = runtime == "llama-bench" ? "b4500" : "4.46.0";
    r.runtime_commit = runtime == "llama-bench" ? "de3ff815ea7d559ee917f063901b8986f038abc6" : "";
    r.prompt_tokens = 128;
    r.prompt_target_len = 128;
    r.generated_tokens = 32;
    r.max_tokens = 32;
    r.batch = 1;
    r.warmup = 1;
    r.repetitions = static_cast<std::int64_t>(decode.size());
    r.cooldown_s = 2;
    r.flags = "-t 2";
    r.command = runtime + " -m /models/" + model + ".gguf -p 128 -n 32 -r 5 -t 2";
    r.prefill_tok_s_samples = prefill;
    r.decode_tok_s_samples = decode;
    std::sort(decode.begin(), decode.end());
    std::sort(prefill.begin(), prefill.end());
    r.decode_tok_s = decode[decode.size() / 2];
    r.prefill_tok_s = prefill[prefill.size() / 2];
    r.format = "Q4_0";
    r.model_bytes = model == "tiny-llama-ci" ? 80000000ull : 400000000ull;
    r.synthetic = true;
    r.contention = "none";
    r.run_id = date + "T120000-1";
    return r;
}

}  // namespace

TEST_CASE("page from a perfgate-schema run: samples, roofline, provenance, charts", "[report][perfgate]") {
    testing::TempDir dir;
    fs::create_directories(dir.file("benchmarks"));
    fs::create_directories(dir.file("thresholds"));
    testing::write_text(dir.file("thresholds/cpu-testbox.json"), R"({"memory_bandwidth": {"bytes_per_s": 40000000000, "source": "triad", "date": "2026-09-01"}})");
    // Earlier runs on this host (history), and one on another host that must not appear.
    // Two machines of the tag, named by their machine_id (the current run's rows have none).
    auto on_machine = [](ResultRow r, const std::string& id) {
        r.machine_id = id;
        return r;
    };
    testing::write_perfgate_csv(dir.file("benchmarks/cpu_cpu-testbox_2026-09-20.csv"),
                             {on_machine(cpu_row("llama-bench", "tiny-llama-ci", {50, 51, 52}, {900, 910, 920}, "2026-09-20"),
                                         "aaaa1111ffffffff"),
                              on_machine(cpu_row("llama-bench", "qwen3-0.6b", {20, 21, 22}, {300, 310, 320}, "2026-09-20"),
                                         "aaaa1111ffffffff")});
    testing::write_perfgate_csv(dir.file("benchmarks/cpu_cpu-testbox_2026-09-25.csv"),
                             {on_machine(cpu_row("llama-bench", "tiny-llama-ci", {55, 56, 57}, {950, 960, 970}, "2026-09-25"),
                                         "bbbb2222ffffffff")});
    auto other = cpu_row("llama-bench", "tiny-llama-ci", {99, 99, 99}, {999, 999, 999}, "2026-09-26");
    other.host = "otherbox";
    testing::write_perfgate_csv(dir.file("benchmarks/cpu_otherbox_2026-09-26.csv"), {other});
    const auto current = dir.file("benchmarks/cpu_cpu-testbox_2026-10-01.csv");
    // The transformers rows' one command in the two path styles recorders wrote (the project's
    // build/<preset>/ folder, and <build>/): the page shows it once, from <build>.
    auto with_command = [](ResultRow r, const std::string& command) {
        r.command = command;
        return r;
    };
    const std::vector<ResultRow> rows{
        cpu_row("llama-bench", "tiny-llama-ci", {60, 58, 61, 59, 62}, {1000, 990, 1010, 1005, 995}, "2026-10-01"),
        with_command(cpu_row("transformers", "tiny-llama-ci", {30, 31, 29, 30.5, 29.5}, {400, 410, 390, 405, 395}, "2026-10-01"),
                     "build/cpu-perf/bench/transformers_bench.py -p 128"),
        cpu_row("llama-bench", "qwen3-0.6b", {24, 23, 25, 24.5, 23.5}, {330, 320, 340, 335, 325}, "2026-10-01"),
        with_command(cpu_row("transformers", "qwen3-0.6b", {12, 11, 13, 12.5, 11.5}, {150, 140, 160, 155, 145}, "2026-10-01"),
                     "<build>/bench/transformers_bench.py -p 128")};
    testing::write_perfgate_csv(current, rows);

    ReportOptions o;
    o.results = {current};
    o.output = dir.file("docs/benchmark_results/cpu_cpu-testbox_2026-10-01.md");
    o.history_dir = dir.file("benchmarks");
    o.thresholds_dir = dir.file("thresholds");
    o.compare = "llama-bench:transformers";
    o.min_ratio = 1.5;
    o.command_line = "perfgate report --results " + current;
    auto outcome = make_report(o);
    REQUIRE(outcome);
    CHECK(outcome->relative_gate == RelativeGate::passed);  // llama-bench is 2x transformers on both models
    const auto page = testing::read_text(o.output);
    CHECK(page.find("imported from mlxcel") == std::string::npos);
    CHECK(page.find("**Synthetic models:**") != std::string::npos);

    const auto results = testing::first_table(testing::section(page, "Results"));
    const auto a_decode = results.column("llama-bench decode tok/s").value();
    const auto b_decode = results.column("transformers decode tok/s").value();
    for (const auto& r : rows) {
        INFO(r.model << " " << r.runtime);
        const auto* line = results.row(markdown_text(r.model));
        REQUIRE(line != nullptr);
        const auto& cell = line->at(r.runtime == "llama-bench" ? a_decode : b_decode);
        CHECK(testing::leading_number(cell).value() == Approx(*r.decode_tok_s).margin(0.005));
        const auto [lo, hi] = std::minmax_element(r.decode_tok_s_samples.begin(), r.decode_tok_s_samples.end());
        CHECK(cell.find(fmt::format("({:.2f}–{:.2f}, n=5)", *lo, *hi)) != std::string::npos);
        CHECK(line->at(1) == "perfgate run, synthetic");
        CHECK(line->at(2) == "Q4_0");  // an intraword underscore is not escaped
        if (r.runtime == "llama-bench") {
            const double share = static_cast<double>(*r.model_bytes) * *r.decode_tok_s / 40e9 * 100;
            const auto eff_col = results.column("Decode efficiency (share of memory bandwidth)");
            REQUIRE(eff_col);
            const auto& roof = line->at(*eff_col);
            const auto pos = roof.find("llama-bench: ");
            REQUIRE(pos != std::string::npos);
            CHECK(testing::leading_number(roof.substr(pos + 13)).value() == Approx(share).margin(0.05));
        }
    }

    const auto env = testing::first_table(testing::section(page, "Environment"));
    CHECK(env.row("OS")->at(1) == markdown_text("Debian GNU/Linux 12 (bookworm)"));
    CHECK(env.row("Kernel")->at(1) == "6.1.0-test");
    CHECK(env.row("llama-bench commit")->at(1) == "de3ff815ea7d559ee917f063901b8986f038abc6");
    REQUIRE(env.row("Contention (other work during the run)"));
    // Every row says "none" (older perfgate files): summarised as one count, not one cell per row.
    const auto& contention = env.row("Contention (other work during the run)")->at(1);
    CHECK_THAT(contention, Catch::Matches("[0-9]+ rows: [0-9]+ none seen"));
    // A CPU page has no GPU: no row that cannot apply, and no mlxcel-only row for other runtimes.
    for (const char* absent : {"GPU target (gfx / sm)", "Driver", "Unified memory", "Device memory (UMA: the carve-out)",
                               "CUDA version", "ROCm release", "llama-bench upstream pin", "transformers overlay commit"})
        CHECK_FALSE(env.row(absent));
    // Labels and sources are the page's own markdown, never escaped.
    CHECK(env.row("OS")->at(2) == "`os` column");
    CHECK(env.row(markdown_text("Host RAM (what the OS sees)"))->at(1).rfind("64.0 GiB", 0) == 0);
    // One block per runtime; an absolute path of the measuring machine keeps only its file name.
    CHECK(page.find("```\nllama-bench -m <host-path>/tiny-llama-ci.gguf -p 128 -n 32 -r 5 -t 2\n"
                    "llama-bench -m <host-path>/qwen3-0.6b.gguf -p 128 -n 32 -r 5 -t 2\n```") != std::string::npos);
    CHECK(page.find("/models/") == std::string::npos);
    CHECK(page.find("```\n<build>/bench/transformers_bench.py -p 128\n```") != std::string::npos);
    CHECK(page.find("build/cpu-perf") == std::string::npos);
    // Each version field says what it is, read off how the runtime was launched.
    REQUIRE(env.row("llama-bench version (llama.cpp release tag)"));
    CHECK(env.row("llama-bench version (llama.cpp release tag)")->at(1) == "b4500");
    REQUIRE(env.row("transformers version (package versions the script printed)"));
    CHECK(env.row("transformers version (package versions the script printed)")->at(1) == "4.46.0");
    CHECK(testing::section(page, "Method").find("- **Repetitions:** 5") != std::string::npos);
    CHECK(testing::section(page, "Method").find("- **Cooldown between runs (s):** 2") != std::string::npos);

    const auto charts = testing::section(page, "Charts");
    if (find_gnuplot("").empty()) {
        WARN("gnuplot is not installed: chart files not checked");
        CHECK(charts.find("Charts not drawn: gnuplot was not found") != std::string::npos);
        return;
    }
    INFO(outcome->summary);
    REQUIRE(outcome->chart_files.size() == 4);  // decode, prefill, 2 histories
    for (const auto& f : outcome->chart_files) {
        INFO(f);
        const auto svg = testing::read_text(f);
        CHECK(svg.find("<svg") != std::string::npos);
        CHECK(charts.find("](" + fs::path(f).filename().string() + ")") != std::string::npos);
    }
    const auto decode_svg = testing::read_text(dir.file("docs/benchmark_results/cpu_cpu-testbox_2026-10-01_decode.svg"));
    CHECK(decode_svg.find("tiny-llama-ci") != std::string::npos);
    CHECK(decode_svg.find("transformers") != std::string::npos);
    CHECK(charts.find("cpu_cpu-testbox_2026-09-20.csv") != std::string::npos);
    // The history shows the gate's floor below the latest run (thresholds: built-in 5% decode).
    const auto history_svg = testing::read_text(dir.file("docs/benchmark_results/cpu_cpu-testbox_2026-10-01_history_01_tiny-llama-ci.svg"));
    CHECK(history_svg.find("floor -5.0%") != std::string::npos);
    // Each machine has its shape, named in the legend (the id cut to 8 characters).
    CHECK(history_svg.find("machine aaaa1111") != std::string::npos);
    CHECK(history_svg.find("machine bbbb2222") != std::string::npos);
    CHECK(history_svg.find("machine not recorded") != std::string::npos);
    CHECK(history_svg.find("ffffffff") == std::string::npos);
    CHECK(charts.find("otherbox") == std::string::npos);  // other host: not history of this one

    // To look at the page and its charts: PERFGATE_REPORT_KEEP=<folder> keeps a copy.
    if (const char* keep = std::getenv("PERFGATE_REPORT_KEEP")) {
        fs::create_directories(keep);
        for (fs::directory_iterator it(dir.file("docs/benchmark_results")), end; it != end; ++it)
            fs::copy_file(it->path(), fs::path(keep) / it->path().filename(), fs::copy_options::overwrite_existing);
    }
}

namespace {

// The Results table of the page made from one day's rows of cpu-testbox, with no history.
testing::Table results_table_of(testing::TempDir& dir, const std::vector<ResultRow>& rows) {
    fs::create_directories(dir.file("benchmarks"));
    fs::create_directories(dir.file("thresholds"));
    const auto current = dir.file("benchmarks/cpu_cpu-testbox_2026-10-01.csv");
    testing::write_perfgate_csv(current, rows);
    ReportOptions o;
    o.results = {current};
    o.output = dir.file("docs/benchmark_results/cpu_cpu-testbox_2026-10-01.md");
    o.history_dir = dir.file("benchmarks");
    o.thresholds_dir = dir.file("thresholds");
    REQUIRE(make_report(o));
    return testing::first_table(testing::section(testing::read_text(o.output), "Results"));
}

}  // namespace

TEST_CASE("peak memory on the page: a column per runtime in MiB, the largest launch", "[report][perfgate]") {
    testing::TempDir dir;
    auto measured = cpu_row("llama-bench", "tiny-llama-ci", {60, 58, 61}, {1000, 990, 1010}, "2026-10-01");
    measured.peak_memory_bytes_samples = {300.0 * 1024 * 1024, 312.5 * 1024 * 1024};
    measured.peak_memory_bytes = 312.5 * 1024 * 1024;
    const auto unmeasured = cpu_row("transformers", "tiny-llama-ci", {30, 31, 29}, {400, 410, 390}, "2026-10-01");
    const auto results = results_table_of(dir, {measured, unmeasured});
    const auto a = results.column("llama-bench peak memory MiB");
    const auto b = results.column("transformers peak memory MiB");
    REQUIRE(a);
    REQUIRE(b);
    const auto* line = results.row("tiny-llama-ci");
    REQUIRE(line != nullptr);
    CHECK(line->at(*a) == "312.5");
    CHECK(line->at(*b) == "-");
    // No pair sampled device memory (a cpu run): no device memory columns at all.
    CHECK_FALSE(results.column("llama-bench device memory MiB"));
}

TEST_CASE("device memory on the page: its own columns, only when some pair sampled it", "[report][perfgate]") {
    testing::TempDir dir;
    auto measured = cpu_row("llama-bench", "tiny-llama-ci", {60, 58, 61}, {1000, 990, 1010}, "2026-10-01");
    measured.peak_memory_bytes = 312.5 * 1024 * 1024;
    measured.peak_device_memory_bytes_samples = {1536.0 * 1024 * 1024, 1600.0 * 1024 * 1024};
    measured.peak_device_memory_bytes = 1600.0 * 1024 * 1024;
    const auto other = cpu_row("transformers", "tiny-llama-ci", {30, 31, 29}, {400, 410, 390}, "2026-10-01");
    const auto results = results_table_of(dir, {measured, other});
    const auto host = results.column("llama-bench peak memory MiB");
    const auto device = results.column("llama-bench device memory MiB");
    const auto none = results.column("transformers device memory MiB");
    REQUIRE(host);
    REQUIRE(device);
    REQUIRE(none);
    const auto* line = results.row("tiny-llama-ci");
    REQUIRE(line != nullptr);
    CHECK(line->at(*host) == "312.5");
    CHECK(line->at(*device) == "1600.0");  // the largest launch
    CHECK(line->at(*none) == "-");
}

TEST_CASE("instruction counts on the page: columns from the metric table, in M instructions per token",
          "[report][perfgate][instructions]") {
    testing::TempDir dir;
    auto timed = cpu_row("llama-bench", "tiny-llama-ci", {60, 58, 61}, {1000, 990, 1010}, "2026-10-01");
    auto counted = cpu_row("llama-bench-instructions", "tiny-llama-ci", {60}, {1000}, "2026-10-01");
    counted.decode_tok_s.reset();
    counted.decode_tok_s_samples.clear();
    counted.prefill_tok_s.reset();
    counted.prefill_tok_s_samples.clear();
    counted.decode_instructions_per_token = 15336217.19;
    counted.prefill_instructions_per_token = 6740147.5;
    const auto results = results_table_of(dir, {timed, counted});
    const auto decode = results.column("llama-bench-instructions decode instructions M instr/token");
    const auto prefill = results.column("llama-bench-instructions prefill instructions M instr/token");
    const auto timed_decode = results.column("llama-bench decode instructions M instr/token");
    REQUIRE(decode);
    REQUIRE(prefill);
    REQUIRE(timed_decode);
    const auto* line = results.row("tiny-llama-ci");
    REQUIRE(line != nullptr);
    CHECK(line->at(*decode) == "15.336");
    CHECK(line->at(*prefill) == "6.740");
    CHECK(line->at(*timed_decode) == "-");
    // The counted pair has no rate: its tok/s cells say so.
    CHECK(line->at(*results.column("llama-bench-instructions decode tok/s")) == "-");
}

TEST_CASE("the runtime comparison says when the two sides load other weights", "[report][perfgate]") {
    for (const std::string other : {"bf16", "Q4_0"}) {
        testing::TempDir dir;
        const auto current = dir.file("cpu_cpu-testbox_2026-10-01.csv");
        auto b = cpu_row("transformers", "qwen3-0.6b", {12, 11, 13}, {150, 140, 160}, "2026-10-01");
        b.format = other;
        testing::write_perfgate_csv(current, {cpu_row("llama-bench", "qwen3-0.6b", {24, 23, 25}, {330, 320, 340}, "2026-10-01"), b});
        ReportOptions o;
        o.results = {current};
        o.output = dir.file("page.md");
        o.compare = "llama-bench:transformers";
        o.charts.enabled = false;
        REQUIRE(make_report(o));
        const auto comparison = testing::section(testing::read_text(o.output), "Comparison");
        INFO(comparison);
        CHECK(comparison.find("median ratio 2.000") != std::string::npos);
        const bool labelled = comparison.find("**Not like for like:** 1 of 1 compared models load other weights on each "
                                              "side (qwen3-0.6b: Q4_0 against bf16)") != std::string::npos;
        CHECK(labelled == (other == "bf16"));
    }
}

TEST_CASE("decode efficiency divides by the bytes a token reads when the row recorded them", "[report][perfgate]") {
    // Recorded; not recorded with a whole-file bound below the roof; not recorded above it.
    for (const auto [recorded, file_bytes] : {std::pair{true, 1500000000ull}, {false, 400000000ull}, {false, 1500000000ull}}) {
        testing::TempDir dir;
        testing::write_text(dir.file("thresholds/cpu-testbox.json"),
                            R"({"memory_bandwidth": {"bytes_per_s": 40000000000, "source": "triad", "date": "2026-09-01"}})");
        const auto current = dir.file("cpu_cpu-testbox_2026-10-01.csv");
        auto moe = cpu_row("llama-bench", "qwen3moe-a1b", {48, 49, 50}, {110, 114, 118}, "2026-10-01");
        moe.model_bytes = file_bytes;  // 1.5 GB x 49 tok/s = 73.5 GB/s, beyond the roof; 0.4 GB: 19.6 GB/s
        if (recorded) moe.active_model_bytes = 450000000ull;
        testing::write_perfgate_csv(current, {moe});
        ReportOptions o;
        o.results = {current};
        o.output = dir.file("page.md");
        o.thresholds_dir = dir.file("thresholds");
        o.charts.enabled = false;
        REQUIRE(make_report(o));
        const auto results = testing::first_table(testing::section(testing::read_text(o.output), "Results"));
        const auto col = results.column("Decode efficiency (share of memory bandwidth)");
        REQUIRE(col);
        const auto& cell = results.row("qwen3moe-a1b")->at(*col);
        INFO(cell);
        if (recorded) {
            CHECK(cell == "llama-bench: 55.1%");  // 0.45 GB x 49 tok/s / 40 GB/s
        } else if (file_bytes < 1000000000ull) {
            CHECK(cell == "llama-bench: ≤ 49.0% (MoE: upper bound)");
        } else {
            // Above all of the bandwidth, the bound bounds nothing: said, never shown as a share.
            CHECK(cell == "llama-bench: not known (the rows do not record the bytes a token reads, and the whole-file "
                          "bound, 183.8%, is above all of the bandwidth)");
        }
    }
}

TEST_CASE("a perfgate ab result file is paged arm by arm, head against base", "[report][perfgate]") {
    testing::TempDir dir;
    const auto current = dir.file("ab.csv");
    auto arm = [](const std::string& which, std::vector<double> decode) {
        auto r = cpu_row("llama-bench", "tiny-llama-ci", decode, {900, 910, 920}, "2026-10-01");
        r.arm = which;
        return r;
    };
    testing::write_perfgate_csv(current, {arm("base", {100, 101, 99}), arm("head", {90, 91, 89}),
                                          arm("base", {100, 100, 100}), arm("head", {90, 90, 90})});
    ReportOptions o;
    o.results = {current};
    o.output = dir.file("ab.md");
    o.charts.enabled = false;
    REQUIRE(make_report(o));
    const auto page = testing::read_text(o.output);
    const auto results = testing::first_table(testing::section(page, "Results"));
    // Two columns of six samples each, not one series of twelve.
    REQUIRE(results.column("llama-bench (base) decode tok/s"));
    REQUIRE(results.column("llama-bench (head) decode tok/s"));
    CHECK(results.row("tiny-llama-ci")->at(*results.column("llama-bench (base) decode tok/s")) == "100.00 (99.00–101.00, n=6)");
    CHECK(results.row("tiny-llama-ci")->at(*results.column("llama-bench (head) decode tok/s")) == "90.00 (89.00–91.00, n=6)");
    CHECK(testing::section(page, "Comparison").find("median ratio 0.900") != std::string::npos);
}

TEST_CASE("report writes markdown and refuses a page name that promises HTML", "[report][perfgate]") {
    testing::TempDir dir;
    const auto current = dir.file("cpu_cpu-testbox_2026-10-01.csv");
    testing::write_perfgate_csv(current, {cpu_row("llama-bench", "tiny-llama-ci", {60, 58, 61}, {1000, 990, 1010}, "2026-10-01")});
    ReportOptions o;
    o.results = {current};
    o.output = dir.file("page.html");
    o.charts.enabled = false;
    auto refused = make_report(o);
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains("page.html") && Catch::Contains("perfgate site"));
    CHECK_FALSE(fs::exists(o.output));
}

TEST_CASE("a page of serving pairs shows their figures as rows of the servers table, without empty rate columns",
          "[report][perfgate][serving]") {
    testing::TempDir dir;
    const auto serving_row = [](const std::string& runtime, std::int64_t concurrency, double itl_ms) {
        auto r = cpu_row(runtime, "tiny-llama-ci", {1}, {1}, "2026-12-04");
        r.prefill_tok_s_samples.clear();
        r.decode_tok_s_samples.clear();
        r.prefill_tok_s.reset();
        r.decode_tok_s.reset();
        r.batch = concurrency;
        r.serving_output_tok_s = 430.0;
        r.itl_p50_ms = itl_ms;
        r.itl_p50_ms_samples = {itl_ms, itl_ms * 1.01};
        return r;
    };
    const auto results = results_table_of(dir, {serving_row("llama-server-c1", 1, 1.3), serving_row("llama-server-c4", 4, 4.8)});
    CHECK_FALSE(results.column("llama-server-c1 prefill tok/s"));
    CHECK_FALSE(results.column("llama-server-c1 decode tok/s"));
    CHECK_FALSE(results.column("llama-server-c1 ITL p50 ms"));  // a row per server, not a column
    const auto server = results.column("Server");
    const auto itl = results.column("ITL p50 ms");
    REQUIRE(server);
    REQUIRE(itl);
    REQUIRE(results.rows.size() == 2);
    CHECK(results.rows[0].at(*server) == "llama-server-c1");
    CHECK(testing::leading_number(results.rows[0].at(*itl)).value() == Approx(1.3065).epsilon(1e-3));
    CHECK(results.rows[1].at(*server) == "llama-server-c4");
    CHECK(testing::leading_number(results.rows[1].at(*itl)).value() == Approx(4.824).epsilon(1e-3));
    // A failed serving pair brings the columns back, where its status is shown.
    auto failed = serving_row("llama-server-c1", 1, 1.3);
    failed.status.text = "FAIL:requests";
    const auto with_failure = results_table_of(dir, {failed});
    REQUIRE(with_failure.column("llama-server-c1 decode tok/s"));
}
