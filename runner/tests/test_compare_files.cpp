// perfgate compare on real llama-bench output (-o json, jsonl, csv, sql of the pinned llama-bench
// on the forged tiny-llama-ci model; perf/tests/data/recorded/README.md) and on perfgate CSVs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "perfgate/core/csv.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/render.hpp"
#include "perfgate/runner/compare_files.hpp"
#include "perfgate/perf/result_files.hpp"
#include "perfgate/perf/suite.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "perfgate/runner/host_setup.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;
using namespace perfgate::perf;
using namespace perfgate::runner;
namespace fs = std::filesystem;

namespace {
std::string outputs(const std::string& name) {
    return test::source_path("perf/tests/data/recorded/llama-bench-outputs/" + name).string();
}

gates::GateOptions gate_defaults() {
    gates::GateOptions o;
    o.thresholds_dir = test::source_path("thresholds").string();
    return o;
}

void write(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// run-a.json with every text-generation rate divided by ten. Its repetitions scatter widely (a
// shared 2-core machine), so a smaller drop is honestly inconclusive under the fallback rule.
std::string decode_fell_to_a_tenth() {
    auto doc = nlohmann::json::parse(test::read_file(outputs("run-a.json")));
    for (auto& t : doc)
        if (t["n_gen"].get<int>() > 0) {
            t["avg_ts"] = t["avg_ts"].get<double>() / 10;
            for (auto& s : t["samples_ts"]) s = s.get<double>() / 10;
        }
    return doc.dump(2);
}
}  // namespace

TEST_CASE("llama-bench json, jsonl, csv and sql of one kind of run read as the same rows", "[compare][llama-bench]") {
    for (const char* run : {"run-a", "run-b"}) {
        auto json = read_result_file(outputs(std::string(run) + ".json"), "h");
        auto jsonl = read_result_file(outputs(std::string(run) + ".jsonl"), "h");
        auto csv = read_result_file(outputs(std::string(run) + ".csv"), "h");
        auto sql = read_result_file(outputs(std::string(run) + ".sql"), "h");
        REQUIRE(json);
        REQUIRE(jsonl);
        REQUIRE(csv);
        REQUIRE(sql);
        CHECK(json->format == ResultFileFormat::llama_bench_json);
        CHECK(jsonl->format == ResultFileFormat::llama_bench_jsonl);
        CHECK(csv->format == ResultFileFormat::llama_bench_csv);
        CHECK(sql->format == ResultFileFormat::llama_bench_sql);
        for (const auto* f : {&*json, &*jsonl, &*csv, &*sql}) {
            REQUIRE(f->rows.size() == 1);
            const auto& r = f->rows[0];
            CHECK(r.model == "tiny-llama-ci-Q8_0-0b867dabe9a5bcd4");
            CHECK(r.runtime == "llama-bench");
            CHECK(r.backend == "cpu");
            CHECK(r.host == "h");
            CHECK(r.prompt_tokens == 32);
            CHECK(r.generated_tokens == 8);
            CHECK(r.format == "Q8_0");
            CHECK(r.runtime_commit == "de3ff81");
            CHECK(r.date == (f == &*sql ? "2026-12-03" : "2026-12-01"));  // when each was recorded
            REQUIRE(r.decode_tok_s);
            REQUIRE(r.prefill_tok_s);
        }
        // The four were separate runs of llama-bench: only the shape is shared, but each file's
        // own numbers come through (the json samples average to its avg_ts).
        const auto& j = json->rows[0];
        REQUIRE(j.decode_tok_s_samples.size() == 3);
        CHECK(*j.decode_tok_s == Approx((j.decode_tok_s_samples[0] + j.decode_tok_s_samples[1] + j.decode_tok_s_samples[2]) / 3).epsilon(0.01));
        CHECK(csv->rows[0].decode_tok_s_samples.empty());  // -o csv prints no samples
        // -o sql prints the fields -o csv does, typed by the same rule: every field of the row
        // that is not a reading is the csv row's.
        const auto& s = sql->rows[0];
        const auto& c = csv->rows[0];
        CHECK(s.decode_tok_s_samples.empty());
        CHECK(s.prefill_tok_s_samples.empty());
        CHECK(s.model == c.model);
        CHECK(s.model_path == c.model_path);
        CHECK(s.backend == c.backend);
        CHECK(s.device == c.device);
        CHECK(s.cpu_model == c.cpu_model);
        CHECK(s.runtime_commit == c.runtime_commit);
        CHECK(s.runtime_version == c.runtime_version);
        CHECK(s.model_bytes == c.model_bytes);
        CHECK(s.format == c.format);
        CHECK(s.flags == c.flags);
        CHECK(s.batch == c.batch);
        CHECK(s.prompt_target_len == c.prompt_target_len);
        CHECK(s.max_tokens == c.max_tokens);
        CHECK(s.repetitions == c.repetitions);
        CHECK(s.decode_ms.has_value() == c.decode_ms.has_value());
        CHECK(s.prefill_ms.has_value() == c.prefill_ms.has_value());
    }
}

TEST_CASE("compare: a file against itself is within noise in every format (one run cannot bound a change)", "[compare]") {
    for (const char* f : {"run-a.json", "run-a.jsonl", "run-a.csv", "run-a.sql"}) {
        auto report = compare_result_files(outputs(f), outputs(f), gate_defaults(), "h");
        REQUIRE(report);
        REQUIRE(report->pairs.size() == 1);
        CHECK(report->pairs[0].verdict == gates::Verdict::within_noise);
        CHECK(gates::passed(*report));
        // The report names A, not the scratch copy it was converted into.
        CHECK_THAT(report->pairs[0].baseline_source, Catch::Contains(f));
    }
}

TEST_CASE("compare: decode fallen to a tenth is regressed, with a json, csv or sql baseline", "[compare]") {
    const auto dir = test::fresh_dir("perfgate-runner-tests", "compare-regressed");
    write(dir / "slow.json", decode_fell_to_a_tenth());
    for (const char* a : {"run-a.json", "run-a.csv", "run-a.sql"}) {
        auto report = compare_result_files(outputs(a), (dir / "slow.json").string(), gate_defaults(), "h");
        REQUIRE(report);
        REQUIRE(report->pairs.size() == 1);
        CHECK(report->pairs[0].verdict == gates::Verdict::regressed);
        CHECK_FALSE(gates::passed(*report));
    }
}

TEST_CASE("compare gives the gate's verdicts: the same files through gates::run_gate", "[compare]") {
    // Both llama-bench runs written as perfgate CSVs; the gate with A as --baseline must agree
    // with compare on the raw llama-bench files, metric by metric.
    const auto dir = test::fresh_dir("perfgate-runner-tests", "compare-vs-gate");
    auto a = read_result_file(outputs("run-a.json"), "h");
    auto b = read_result_file(outputs("run-b.json"), "h");
    REQUIRE(a);
    REQUIRE(b);
    std::string text_a = perfgate_header_line() + "\n", text_b = text_a;
    for (const auto& r : a->rows) text_a += format_result_row(r);
    for (const auto& r : b->rows) text_b += format_result_row(r);
    fs::create_directories(dir / "a");
    fs::create_directories(dir / "b");
    write(dir / "a/cpu_h_2026-12-01.csv", text_a);
    write(dir / "b/cpu_h_2026-12-01.csv", text_b);

    auto options = gate_defaults();
    options.baseline = (dir / "a/cpu_h_2026-12-01.csv").string();
    options.results = {(dir / "b/cpu_h_2026-12-01.csv").string()};
    options.benchmarks_dir = (dir / "a").string();
    auto gated = gates::run_gate(options);
    auto compared = compare_result_files(outputs("run-a.json"), outputs("run-b.json"), gate_defaults(), "h");
    auto csv_compared = compare_result_files((dir / "a/cpu_h_2026-12-01.csv").string(),
                                             (dir / "b/cpu_h_2026-12-01.csv").string(), gate_defaults(), "h");
    REQUIRE(gated);
    REQUIRE(compared);
    REQUIRE(csv_compared);
    for (const auto* r : {&*compared, &*csv_compared}) {
        REQUIRE(r->pairs.size() == gated->pairs.size());
        CHECK(r->pairs[0].verdict == gated->pairs[0].verdict);
        REQUIRE(r->pairs[0].metrics.size() == gated->pairs[0].metrics.size());
        for (std::size_t i = 0; i < gated->pairs[0].metrics.size(); ++i) {
            CHECK(r->pairs[0].metrics[i].verdict == gated->pairs[0].metrics[i].verdict);
            CHECK(r->pairs[0].metrics[i].change == gated->pairs[0].metrics[i].change);
        }
        CHECK(gates::passed(*r) == gates::passed(*gated));
    }
}

TEST_CASE("compare: an mlxcel CSV against itself passes through the gate, every pair within noise", "[compare]") {
    const auto csv = test::mlxcel_csv("rocm_strixhalo-gfx1151_2026-09-30.csv");
    auto report = compare_result_files(csv, csv, gate_defaults(), "h");
    REQUIRE(report);
    // One reading a side cannot bound a change within the floor: within noise, never unchanged.
    CHECK(report->count(gates::Verdict::within_noise) == report->pairs.size());
    CHECK(gates::passed(*report));
}

TEST_CASE("llama-bench readers name the file and line of bad input", "[compare][llama-bench]") {
    const auto dir = test::fresh_dir("perfgate-runner-tests", "llama-bench-bad");
    const auto csv_text = test::read_file(outputs("run-a.csv"));
    write(dir / "short.csv", csv_text + "\"de3ff81\",\"1\"\n");
    auto short_row = read_result_file((dir / "short.csv").string(), "h");
    REQUIRE_FALSE(short_row);
    CHECK_THAT(short_row.error().message, Catch::Contains("short.csv:4: llama-bench CSV: 2 fields, the header has 41"));

    write(dir / "bad.jsonl", test::read_file(outputs("run-a.jsonl")) + "{not json\n");
    auto bad_line = read_result_file((dir / "bad.jsonl").string(), "h");
    REQUIRE_FALSE(bad_line);
    CHECK_THAT(bad_line.error().message, Catch::Contains("bad.jsonl:3: invalid JSON"));

    const auto sql_text = test::read_file(outputs("run-a.sql"));
    const auto lines = static_cast<std::size_t>(std::count(sql_text.begin(), sql_text.end(), '\n'));
    write(dir / "cut.sql", sql_text + "INSERT INTO llama_bench (build_commit) VALUES ('de3ff81'\n");
    auto cut = read_result_file((dir / "cut.sql").string(), "h");
    REQUIRE_FALSE(cut);
    CHECK_THAT(cut.error().message,
               Catch::Contains("cut.sql:" + std::to_string(lines + 1) + ": llama-bench SQL: the statement ends before its ';'"));

    auto doc = nlohmann::json::parse(test::read_file(outputs("run-a.json")));
    doc[1]["avg_ts"] = -1.0;
    write(dir / "negative.json", doc.dump(2));
    auto negative = read_result_file((dir / "negative.json").string(), "h");
    REQUIRE_FALSE(negative);
    CHECK_THAT(negative.error().message, Catch::Contains("negative.json:"));
    CHECK_THAT(negative.error().message, Catch::Contains("avg_ts -1: -1 tok/s is not a positive rate"));
}

TEST_CASE("several configurations of one model in one llama-bench file are separate pairs", "[compare][llama-bench]") {
    // run-a.jsonl twice, the second copy as if run with -t 2: the thread count names the pair.
    std::string text;
    for (int threads : {1, 2}) {
        std::istringstream lines(test::read_file(outputs("run-a.jsonl")));
        for (std::string line; std::getline(lines, line);) {
            auto o = nlohmann::json::parse(line);
            o["n_threads"] = threads;
            text += o.dump() + "\n";
        }
    }
    auto tests = parse_llama_bench_jsonl(text, "two.jsonl");
    REQUIRE(tests);
    auto rows = llama_bench_rows(*tests, "two.jsonl", "h");
    REQUIRE(rows);
    REQUIRE(rows->size() == 2);
    CHECK((*rows)[0].model == "tiny-llama-ci-Q8_0-0b867dabe9a5bcd4 [n_threads=1]");
    CHECK((*rows)[1].model == "tiny-llama-ci-Q8_0-0b867dabe9a5bcd4 [n_threads=2]");
}

TEST_CASE("llama-bench's -pg and -d tests are pairs of their own, gated like any rate", "[compare][llama-bench]") {
    // Real output: -p 32 -n 8 -pg 32,8 -d 0,16 (perf/tests/data/recorded/README.md).
    auto file = read_result_file(outputs("run-pg-depth.json"), "h");
    REQUIRE(file);
    REQUIRE(file->rows.size() == 4);
    const std::string m = "tiny-llama-ci-Q8_0-0b867dabe9a5bcd4";
    CHECK(file->rows[0].model == m + " [n_depth=0]");
    CHECK(file->rows[1].model == m + " [n_depth=0] [pp32+tg8]");
    CHECK(file->rows[2].model == m + " [n_depth=16]");
    CHECK(file->rows[3].model == m + " [n_depth=16] [pp32+tg8]");
    for (std::size_t i : {0u, 2u}) {
        CHECK(file->rows[i].prefill_tok_s);
        CHECK(file->rows[i].decode_tok_s);
        CHECK_FALSE(file->rows[i].prompt_gen_tok_s);
    }
    for (std::size_t i : {1u, 3u}) {
        const auto& pg = file->rows[i];
        REQUIRE(pg.prompt_gen_tok_s);
        CHECK(pg.prompt_gen_tok_s_samples.size() == 3);
        CHECK(pg.prompt_tokens == 32);
        CHECK(pg.generated_tokens == 8);
        CHECK_FALSE(pg.prefill_tok_s);  // never folded into prefill or decode
        CHECK_FALSE(pg.decode_tok_s);
    }

    // The combined rate at a tenth: judged on prompt_gen_tok_s. At depth 0 it is regressed; at
    // depth 16 its three repetitions scatter from 358 to 710 tok/s, so the within-run test cannot
    // agree at the suite's alpha (Welch p 0.02 over 3 and 3): inconclusive, and the reason says
    // that, not "within the run-to-run noise" beside a tiny p. The other pairs did not change.
    const auto dir = test::fresh_dir("perfgate-runner-tests", "compare-pg");
    auto doc = nlohmann::json::parse(test::read_file(outputs("run-pg-depth.json")));
    for (auto& t : doc)
        if (t["n_prompt"].get<int>() > 0 && t["n_gen"].get<int>() > 0) {
            t["avg_ts"] = t["avg_ts"].get<double>() / 10;
            for (auto& v : t["samples_ts"]) v = v.get<double>() / 10;
        }
    write(dir / "pg-tenth.json", doc.dump(2));
    auto report = compare_result_files(outputs("run-pg-depth.json"), (dir / "pg-tenth.json").string(), gate_defaults(), "h");
    REQUIRE(report);
    REQUIRE(report->pairs.size() == 4);
    for (const auto& p : report->pairs) {
        INFO(p.model);
        const bool pg = p.model.ends_with("[pp32+tg8]");
        const auto it = std::find_if(p.metrics.begin(), p.metrics.end(),
                                     [](const gates::MetricCheck& c) { return c.metric == "prompt_gen_tok_s"; });
        CHECK((it != p.metrics.end()) == pg);
        if (!pg) {
            CHECK(p.verdict == gates::Verdict::within_noise);
            continue;
        }
        REQUIRE(it != p.metrics.end());
        CHECK(*it->change == Approx(-0.9).margin(1e-6));
        if (p.model.find("n_depth=0]") != std::string::npos) {
            CHECK(it->verdict == gates::Verdict::regressed);
        } else {
            CHECK(it->verdict == gates::Verdict::inconclusive);
            CHECK_THAT(it->reason, Catch::Contains("beyond the assumed between-run spread") &&
                                       Catch::Contains("the repetitions scatter too much to tell it from noise (welch-t p = 0.0199 over 3 and 3"));
        }
    }
    CHECK_FALSE(gates::passed(*report));
}

TEST_CASE("one list of runtime kinds: every kind of the runtime table is a probe kind", "[runtime-kind]") {
    // The suites' kinds and the probe's names both come from perf's runtime table: its rows and
    // their probe aliases, each accepted, and nothing else.
    std::size_t names = 0;
    for (const auto& adapter : runtime_adapters()) {
        CHECK(find_probe_query(adapter.name));
        for (const auto& alias : adapter.probe_aliases) CHECK(find_probe_query(alias));
        names += 1 + adapter.probe_aliases.size();
    }
    const auto listed = probe_runtime_names();
    CHECK(static_cast<std::size_t>(std::count(listed.begin(), listed.end(), ',')) + 1 == names);
    CHECK(find_runtime_adapter("llama.cpp") == nullptr);  // an alias is the probe's only, no suite kind
    // perfgate run --probe-runtime refuses a name outside the table before it probes anything.
    HostSource source;
    source.probe_runtime = "vllm=/usr/bin/vllm";
    const auto host = resolve_host(source);
    REQUIRE_FALSE(host);
    CHECK(host.error().message == "unknown runtime kind \"vllm\"; valid kinds: " + listed);
}

TEST_CASE("compare holds llama-bench files to the CSV reader's rules, naming the user's file and line", "[compare][llama-bench][hardening]") {
    // Issue 26 item 15: each of these was accepted (and an impossible workload read as "not
    // comparable", PASS); an error named compare's own deleted scratch file.
    test::TempDir tmp("hostile-inputs");
    const auto real = nlohmann::json::parse(test::read_file(outputs("run-a.json")));
    auto broken = [&](const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
        auto doc = real;
        edit(doc[1]);
        const auto path = tmp.path / name;
        write(path, doc.dump(2));
        return path.string();
    };
    const auto current = outputs("run-b.json");
    auto refused = [&](const std::string& baseline, const std::string& what) {
        auto report = compare_result_files(baseline, current, gate_defaults(), "h");
        REQUIRE_FALSE(report);
        INFO(report.error().message);
        CHECK_THAT(report.error().message, Catch::StartsWith(baseline + ":") && Catch::Contains(what));
        CHECK(report.error().message.find("perfgate-compare-") == std::string::npos);
    };
    refused(broken("date.json", [](auto& t) { t["test_time"] = "2026-02-30T10:00:00Z"; }), "not start with a real YYYY-MM-DD date");
    refused(broken("garbage-date.json", [](auto& t) { t["test_time"] = "yesterday"; }), "real YYYY-MM-DD date");
    refused(broken("n-gen.json", [](auto& t) { t["n_gen"] = -5; }), "negative token count");
    // Issue 48 item 21: the string was reported as "nan"; the error quotes what the file says.
    refused(broken("string-sample.json", [](auto& t) { t["samples_ts"][0] = "fast"; }),
            "samples_ts entry \"fast\" is not a number");
    refused(broken("string-avg.json", [](auto& t) { t["avg_ts"] = "fast"; }), "avg_ts \"fast\" is not a number");
    refused(broken("huge.json", [](auto& t) { t["avg_ts"] = 1e308; }), "avg_ts 1e+308");
    // A member given twice: nlohmann keeps one silently, so the text is edited, not the value.
    auto text = real.dump(2);
    const auto at = text.find("\"n_threads\"");
    REQUIRE(at != std::string::npos);
    text.insert(at, "\"n_threads\": 99,\n    ");
    const auto twice = (tmp.path / "twice.json").string();
    write(twice, text);
    auto report = compare_result_files(twice, current, gate_defaults(), "h");
    REQUIRE_FALSE(report);
    CHECK_THAT(report.error().message, Catch::StartsWith(twice + ":") && Catch::Contains("\"n_threads\" appears twice"));
}

TEST_CASE("compare: no text of the report names its scratch copy of a converted baseline", "[compare][llama-bench][hardening]") {
    // Issue 48 item 21: a metric's reference ("run <temporary folder>/perfgate-compare-XXXX/cpu_h_....csv:2")
    // named the scratch file compare converts a llama-bench baseline into, deleted when it returns.
    const auto baseline = outputs("run-a.json");
    auto report = compare_result_files(baseline, outputs("run-b.json"), gate_defaults(), "h");
    REQUIRE(report);
    std::size_t texts = 0, naming_a = 0;
    gates::for_each_text(*report, [&](std::string& text) {
        ++texts;
        INFO(text);
        CHECK(text.find("perfgate-compare-") == std::string::npos);
        if (text.find(baseline) != std::string::npos) ++naming_a;
    });
    CHECK(texts > 10);
    CHECK(naming_a > 0);  // the references name the user's file instead
    for (const auto& format : {gates::ReportFormat::json, gates::ReportFormat::markdown, gates::ReportFormat::text})
        CHECK(gates::render(*report, format).find("perfgate-compare-") == std::string::npos);
}

TEST_CASE("compare: vLLM and SGLang serving result files, latencies judged lower-is-better", "[compare][serving-results]") {
    const auto serving = [](const char* name) {
        return test::source_path(std::string("perf/tests/data/serving-results/") + name).string();
    };
    const auto verdict_of = [](const gates::PairReport& pair, const std::string& metric) {
        for (const auto& m : pair.metrics)
            if (m.metric == metric) return m.verdict;
        FAIL("no " << metric);
        return gates::Verdict::new_pair;
    };
    // Head: TPOT and ITL up 60%, output throughput down 38%, TTFT up 3.7% (one run a side: the
    // fallback rule with the priors, under which only a change this large is beyond the noise).
    auto vllm = compare_result_files(serving("vllm-serve-base.json"), serving("vllm-serve-head.json"), gate_defaults(), "h200");
    REQUIRE(vllm);
    REQUIRE(vllm->pairs.size() == 1);
    CHECK(verdict_of(vllm->pairs[0], "itl_p50_ms") == gates::Verdict::regressed);
    CHECK(verdict_of(vllm->pairs[0], "tpot_p50_ms") == gates::Verdict::regressed);
    CHECK(verdict_of(vllm->pairs[0], "serving_output_tok_s") == gates::Verdict::regressed);
    CHECK(verdict_of(vllm->pairs[0], "ttft_p50_ms") != gates::Verdict::regressed);
    CHECK_FALSE(gates::passed(*vllm));
    // The other way round the same changes are improvements.
    auto back = compare_result_files(serving("vllm-serve-head.json"), serving("vllm-serve-base.json"), gate_defaults(), "h200");
    REQUIRE(back);
    CHECK(verdict_of(back->pairs[0], "itl_p50_ms") == gates::Verdict::improved);
    CHECK(gates::passed(*back));

    // SGLang: the base file holds two runs; the latest is judged. The slower run regresses.
    auto sglang = compare_result_files(serving("sglang-bench-serving.jsonl"), serving("sglang-bench-serving-slower.jsonl"),
                                       gate_defaults(), "h200");
    REQUIRE(sglang);
    REQUIRE(sglang->pairs.size() == 1);
    CHECK(verdict_of(sglang->pairs[0], "itl_p50_ms") == gates::Verdict::regressed);
    CHECK(verdict_of(sglang->pairs[0], "tpot_p50_ms") == gates::Verdict::regressed);
    CHECK_FALSE(gates::passed(*sglang));
    auto same = compare_result_files(serving("sglang-bench-serving.jsonl"), serving("sglang-bench-serving.jsonl"),
                                     gate_defaults(), "h200");
    REQUIRE(same);
    CHECK(gates::passed(*same));

    // A run whose requests failed fails the comparison, whatever its figures.
    auto failed = compare_result_files(serving("vllm-serve-base.json"), serving("vllm-serve-failed.json"), gate_defaults(), "h200");
    REQUIRE(failed);
    CHECK_FALSE(gates::passed(*failed));
}
