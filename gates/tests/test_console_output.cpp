// The gate's reports as a person reads them: every console line within 120 columns for the suites'
// names, colour only when asked, a new pair's numbers in every format, counts in the right number,
// and data from the CSVs escaped for each format (docs/reliability.md, attack cases).
#include <catch2/catch.hpp>

#include <algorithm>
#include <boost/filesystem.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gate_test_support.hpp"
#include "perfgate/test/rows.hpp"
#include "perfgate/core/escape.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/render.hpp"

using namespace perfgate;
using namespace perfgate::gates;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// Every runtime/model pair of the committed suites.
std::vector<std::pair<std::string, std::string>> suite_pairs() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : boost::filesystem::directory_iterator(std::string(PERFGATE_SOURCE_DIR) + "/perf/suites")) {
        if (e.path().extension() != ".json") continue;
        const auto j = nlohmann::json::parse(testing::slurp(e.path().string()));
        for (const auto& rt : j.at("runtimes"))
            for (const auto& m : j.at("models")) out.emplace_back(rt.at("name"), m.at("name"));
    }
    std::sort(out.begin(), out.end());  // suites share pairs (llama-bench/qwen3-0.6b: cpu and cuda)
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

MetricCheck metric(const std::string& name, Verdict v, std::optional<double> base, std::optional<double> now) {
    MetricCheck m;
    m.metric = name;
    m.verdict = v;
    m.baseline_value = base;
    m.current_value = now;
    if (base && now) m.change = *now / *base - 1;
    return m;
}

// A report with every kind of row a run can hold, for the given pairs, large numbers included.
GateReport every_kind(const std::vector<std::pair<std::string, std::string>>& pairs, bool hosts_differ) {
    GateReport r;
    const Verdict kinds[] = {Verdict::regressed, Verdict::new_pair, Verdict::not_comparable, Verdict::inconclusive,
                             Verdict::improved, Verdict::unchanged, Verdict::failed, Verdict::missing};
    std::size_t i = 0;
    for (const auto& [runtime, model] : pairs) {
        PairReport p;
        p.runtime = runtime;
        p.model = model;
        p.host = hosts_differ && i % 2 ? "strixhalo-gfx1151" : "cpu-epyc";
        p.harness = "text";
        p.prompt_target_len = i % 3 ? 512 : 4096;  // shown: the rows differ in it
        const Verdict v = kinds[i++ % std::size(kinds)];
        p.verdict = v;
        const bool have_base = v != Verdict::new_pair && v != Verdict::failed;
        auto d = metric("decode_tok_s", v, have_base ? std::optional<double>(3718.08) : std::nullopt, 1234.56);
        d.test = "history";
        d.max_drop = 0.05;
        d.p_value = 0.000123;
        d.reason = "history 10 runs, between-run spread 2.1%, MDE 6.3%";
        auto f = metric("prefill_tok_s", v, have_base ? std::optional<double>(213747.0) : std::nullopt, 9999999.0);
        p.metrics = {d, f};
        p.reason = "no earlier reading of " + model + " (" + runtime + ", text) in /home/someone/a/rather/long/path/"
                   "to/the/benchmarks/folder/of/this/project (cpu files of cpu on host cpu-epyc)";
        if (v == Verdict::unchanged) p.warnings.push_back("the baseline " + model + " was superseded by a later run");
        p.reruns = v == Verdict::inconclusive ? 2 : 0;
        r.pairs.push_back(p);
    }
    sort_worst_first(r.pairs);
    r.notes.push_back("host cpu-epyc: thresholds from thresholds/cpu-epyc.json over thresholds/default.json");
    r.warnings.push_back("thresholds/default.json changed in the working tree");
    return r;
}

// One measured row of a pair no benchmarks/ folder has seen: gated, it is new.
ResultRow fresh_row(const std::string& model) {
    ResultRow row = perfgate::test::make_row({.model = model, .host = "ci-new", .date = "2026-11-30", .prompt_tokens = 64,
                                              .generated_tokens = 32, .decode_tok_s = 1409.17});
    row.decode_tok_s_samples = {1400.5, 1409.17, 1420.25};
    row.prefill_tok_s = 968.625;
    return row;
}

GateOptions empty_history(const std::string& bench) {
    GateOptions o;
    o.benchmarks_dir = bench;
    o.thresholds_dir = testing::thresholds_dir();
    return o;
}

}  // namespace

TEST_CASE("every console line fits 120 columns for the suites' names", "[gates][render][console]") {
    const auto pairs = suite_pairs();
    REQUIRE(pairs.size() >= 10);
    std::size_t longest = 0;
    for (const auto& [rt, m] : pairs) longest = std::max(longest, rt.size() + 1 + m.size());
    INFO("longest runtime/model: " << longest);
    for (bool hosts_differ : {false, true}) {
        const auto text = render_text(every_kind(pairs, hosts_differ));
        for (const auto& line : lines_of(text)) {
            INFO(line);
            CHECK(console_width(line) <= 120);
        }
        // One row per pair: each pair's name starts exactly one line (then " pp512" or " pp4096").
        for (const auto& [rt, m] : pairs) {
            const std::string name = "  " + rt + "/" + m + " pp";
            std::size_t rows = 0;
            for (const auto& line : lines_of(text)) rows += line.find(name) != std::string::npos;
            CHECK(rows == 1);
        }
    }
    // A name longer than its column still keeps every line within the width.
    auto r = every_kind({{"llama-bench", std::string(150, 'x')}}, false);
    for (const auto& line : lines_of(render_text(r))) CHECK(console_width(line) <= 120);
}

TEST_CASE("colour only when asked for, on verdict words", "[gates][render][console]") {
    const auto r = every_kind(suite_pairs(), false);
    const auto plain = render_text(r);
    CHECK(plain.find('\x1b') == std::string::npos);
    TextStyle colour;
    colour.color = true;
    const auto painted = render_text(r, colour);
    CHECK_THAT(painted, Catch::Contains("\x1b[31mREGRESSED\x1b[0m") && Catch::Contains("\x1b[33minconclusive\x1b[0m") &&
                            Catch::Contains("\x1b[32mimproved\x1b[0m") && Catch::Contains("gate: \x1b[31mFAIL"));
    // The markdown, JUnit and JSON exports never carry escape sequences.
    for (auto f : {ReportFormat::markdown, ReportFormat::junit, ReportFormat::json})
        CHECK(render(r, f, colour).find('\x1b') == std::string::npos);
}

TEST_CASE("verdict counts are in the right number", "[gates][render]") {
    GateReport r;
    CHECK(verdict_counts(r) == "no pairs");
    PairReport p;
    p.verdict = Verdict::regressed;
    r.pairs.push_back(p);
    p.verdict = Verdict::unchanged;
    r.pairs.push_back(p);
    r.pairs.push_back(p);
    p.verdict = Verdict::new_pair;
    r.pairs.push_back(p);
    CHECK(verdict_counts(r) == "1 pair regressed, 1 new pair, 2 pairs unchanged");
    // The last line says how many pairs were compared with a baseline, and why the others were not.
    CHECK(compared_line(r) == "compared 3 of 4 pairs with a baseline; not compared: 1 new (no earlier reading)");
    CHECK_THAT(render_text(r), Catch::Contains("gate: FAIL: 1 pair regressed, 1 new pair, 2 pairs unchanged\ncompared 3 of 4"));
    CHECK_THAT(render_markdown(r), Catch::Contains("1 pair regressed, 1 new pair, 2 pairs unchanged."));
    // Every pair compared: no such line.
    r.pairs.pop_back();
    CHECK_FALSE(compared_line(r));
    CHECK_THAT(render_text(r), Catch::EndsWith("gate: FAIL: 1 pair regressed, 2 pairs unchanged\n"));
    // A newcomer's run: nothing compared, and the line says so and why.
    GateReport newcomer;
    p.verdict = Verdict::new_machine;
    for (int i = 0; i < 4; ++i) newcomer.pairs.push_back(p);
    p.verdict = Verdict::skipped;
    newcomer.pairs.push_back(p);
    CHECK(compared_line(newcomer) == "compared 0 of 5 pairs with a baseline; not compared: 4 new machine (their history "
                                     "comes from other machines), 1 skipped");
}

TEST_CASE("a new pair's numbers are in the text, markdown and JSON", "[gates][render]") {
    testing::TempDir tmp;
    const auto bench = tmp.sub("benchmarks");
    boost::filesystem::create_directories(bench);
    auto o = empty_history(bench);
    o.empty_run = EmptyRun::allow;
    auto report = gate_rows({fresh_row("tiny-llama-ci")}, o);
    REQUIRE(report);
    REQUIRE(report->pairs.size() == 1);
    CHECK(report->pairs[0].verdict == Verdict::new_pair);
    CHECK_THAT(render_text(*report), Catch::Contains("- -> 1409") && Catch::Contains("- -> 968.6") &&
                                         Catch::Contains("gate: PASS: 1 new pair"));
    CHECK_THAT(render_markdown(*report), Catch::Contains("| 1409.17 |") && Catch::Contains("| 968.6"));
    const auto j = nlohmann::json::parse(render_json(*report));
    const auto& metrics = j["pairs"][0]["metrics"];
    REQUIRE(metrics.size() == 2);
    CHECK(metrics[0]["metric"] == "decode_tok_s");
    CHECK(metrics[0]["current"].get<double>() == Approx(1409.17));
    CHECK(metrics[0]["current_samples"].size() == 3);
    CHECK(metrics[1]["current"].get<double>() == Approx(968.625));
    CHECK(metrics[0]["baseline"].is_null());
}

TEST_CASE("escape sequences and HTML in a model name stay text in every format", "[gates][render][hardening]") {
    const std::string hostile = "m\x1b[31m</details><img src=x onerror=alert(1)>|x";
    testing::TempDir tmp;
    const auto bench = tmp.sub("benchmarks");
    boost::filesystem::create_directories(bench);
    auto report = gate_rows({fresh_row(hostile)}, empty_history(bench));  // a new pair
    REQUIRE(report);
    auto r = *report;
    // The same name in a regressed pair with reasons and warnings that repeat it.
    auto bad = every_kind({{"llama-bench", hostile}}, false).pairs.front();
    bad.warnings.push_back("fingerprint of " + hostile + " changed");
    r.pairs.push_back(bad);
    r.notes.push_back("note about " + hostile);

    const auto text = render_text(r);
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK_THAT(text, Catch::Contains("m?[31m</details>"));  // visible, inert

    const auto md = render_markdown(r);
    CHECK(md.find('\x1b') == std::string::npos);
    CHECK(md.find("<img") == std::string::npos);
    // No unchanged pair here, so the report opens no <details> block: any closing tag came from data.
    // And no cell gains a column.
    CHECK(md.find("</details>") == std::string::npos);
    CHECK_THAT(md, Catch::Contains("&lt;/details&gt;&lt;img src=x onerror=alert(1)&gt;\\|x"));
    for (const auto& line : lines_of(md)) {
        if (line.rfind("| ", 0) != 0) continue;
        std::size_t pipes = 0;
        for (std::size_t i = 0; i < line.size(); ++i) pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
        CHECK(pipes == 9);  // 8 columns
    }

    const auto xml = render_junit(r);
    CHECK(xml.find('\x1b') == std::string::npos);
    CHECK(xml.find("<img") == std::string::npos);
    CHECK(xml.find("</details>") == std::string::npos);

    const auto j = nlohmann::json::parse(render_json(r));  // nlohmann escapes; the name survives intact
    CHECK(j["pairs"][0]["model"].get<std::string>() == hostile);
}
