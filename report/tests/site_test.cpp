// perfgate site's page as text (report/site.hpp): what the browser test (cli.site_browser) cannot
// see cheaply: data from the CSVs escaped in HTML and in the embedded JSON, runs under other
// runtime flags kept as a series of their own, and a clear error without uPlot.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "perfgate/report/site.hpp"
#include "perfgate/test/files.hpp"
#include "perfgate/test/rows.hpp"

using namespace perfgate;
using perfgate::test::TempDir;

namespace {

ResultRow run_row(const std::string& model, const std::string& run, const std::string& time, double decode,
                  const std::string& flags = "") {
    test::RowFields fields;
    fields.model = model;
    fields.decode_tok_s = decode;
    ResultRow r = test::make_row(fields);
    r.run_id = run;
    r.timestamp = time;
    r.flags = flags;
    return r;
}

// A stand-in for the uplot package: the three files the site copies.
std::string fake_uplot(const TempDir& dir) {
    test::write_file(dir.sub("uplot/dist/uPlot.iife.min.js"), "var uPlot = function () {};\n");
    test::write_file(dir.sub("uplot/dist/uPlot.min.css"), ".uplot {}\n");
    test::write_file(dir.sub("uplot/LICENSE"), "MIT\n");
    return dir.file("uplot");
}

nlohmann::json embedded_data(const std::string& page) {
    const std::string open = "<script type=\"application/json\" id=\"perfgate-data\">";
    const auto from = page.find(open) + open.size();
    return nlohmann::json::parse(page.substr(from, page.find("</script>", from) - from));
}

}  // namespace

TEST_CASE("site: names from the CSVs stay text in the page and in its embedded data", "[site]") {
    TempDir dir("site");
    const std::string odd = "m</script><b>&\"x";
    test::write_perfgate_csv(dir.sub("bench/cpu_cpu-epyc_2026-11-29.csv"),
                             {run_row(odd, "r1", "2026-11-29T10:00:00Z", 10.0), run_row(odd, "r2", "2026-11-29T11:00:00Z", 10.4)});
    test::write_file(dir.sub("thresholds/default.json"), test::read_file(test::source_path("thresholds/default.json").string()));
    auto summary = report::build_site({dir.file("bench"), dir.file("thresholds"), dir.file("site"), fake_uplot(dir)});
    REQUIRE(summary);
    CHECK(summary->hosts == 1);
    CHECK(summary->runs == 2);  // decode of two runs: the only metric recorded
    const std::string page = test::read_file(dir.file("site/index.html"));
    // In the HTML, markup as text; in the JSON, only "</" could end the script early.
    const std::string html = page.substr(0, page.find("<script type=\"application/json\""));
    CHECK(html.find("<b>") == std::string::npos);
    CHECK(page.find("m</script>") == std::string::npos);
    CHECK(page.find("m&lt;/script&gt;&lt;b&gt;&amp;&quot;x") != std::string::npos);
    CHECK(page.find("data-points=\"2\"") != std::string::npos);
    const auto data = embedded_data(page);
    REQUIRE(data["series"].size() == 1);
    CHECK(data["series"][0]["model"] == odd);  // the JSON escape ("<\/") reads back as the name
    CHECK(data["series"][0]["runs"][1]["run"] == "r2");
    CHECK(data["series"][0]["runs"][1]["when"] == "2026-11-29T11:00:00Z");
    for (const char* file : {"uPlot.iife.min.js", "uPlot.min.css", "uPlot.LICENSE", "site.js", "site.css"})
        CHECK(std::filesystem::file_size(dir.path / "site" / file) > 0);
}

TEST_CASE("site: a name that opens an HTML comment and a script cannot swallow the page's scripts", "[site]") {
    // Issue 48 item 19: "<!--<script>" inside the data script put the parser in the script's
    // double-escaped state; its real "</script>" no longer closed it, and the chart scripts after
    // it were read as data (0 of 6 charts drawn).
    TempDir dir("site-comment");
    const std::string odd = "<!--<script>&x";
    test::write_perfgate_csv(dir.sub("bench/cpu_cpu-epyc_2026-11-29.csv"),
                             {run_row(odd, "r1", "2026-11-29T10:00:00Z", 10.0), run_row(odd, "r2", "2026-11-29T11:00:00Z", 10.4)});
    test::write_file(dir.sub("thresholds/default.json"), test::read_file(test::source_path("thresholds/default.json").string()));
    REQUIRE(report::build_site({dir.file("bench"), dir.file("thresholds"), dir.file("site"), fake_uplot(dir)}));
    const std::string page = test::read_file(dir.file("site/index.html"));
    const std::string open = "<script type=\"application/json\" id=\"perfgate-data\">";
    const auto from = page.find(open) + open.size();
    const auto to = page.find("</script>", from);
    const std::string data_text = page.substr(from, to - from);
    // Nothing in the data script the HTML tokenizer reacts to: no '<', '>' or '&' at all.
    CHECK(data_text.find_first_of("<>&") == std::string::npos);
    // The chart scripts follow the data script's own end, and the name reads back whole.
    CHECK(page.find("<script src=\"site.js\"></script>", to) != std::string::npos);
    const auto data = embedded_data(page);
    REQUIRE(data["series"].size() == 1);
    CHECK(data["series"][0]["model"] == odd);
}

TEST_CASE("site: runs under earlier runtime flags are a series of their own, without the gate's verdict", "[site]") {
    TempDir dir("site");
    // As the committed CPU history: the next day's file runs llama-bench with -t 1.
    std::vector<ResultRow> before, after;
    for (int i = 0; i < 3; ++i) before.push_back(run_row("q", "a" + std::to_string(i), fmt::format("2026-11-29T1{}:00:00Z", i), 10.0 + i));
    for (int i = 0; i < 2; ++i) after.push_back(run_row("q", "b" + std::to_string(i), fmt::format("2026-11-30T1{}:00:00Z", i), 20.0 + i, "-t 1"));
    for (auto& r : after) r.date = "2026-11-30";
    test::write_perfgate_csv(dir.sub("bench/cpu_cpu-epyc_2026-11-29.csv"), before);
    test::write_perfgate_csv(dir.sub("bench/cpu_cpu-epyc_2026-11-30.csv"), after);
    test::write_file(dir.sub("thresholds/default.json"), test::read_file(test::source_path("thresholds/default.json").string()));
    auto summary = report::build_site({dir.file("bench"), dir.file("thresholds"), dir.file("site"), fake_uplot(dir)});
    REQUIRE(summary);
    CHECK(summary->runs == 5);
    const auto data = embedded_data(test::read_file(dir.file("site/index.html")));
    REQUIRE(data["series"].size() == 2);
    CHECK(data["series"][0]["flags"] == "");
    CHECK(data["series"][0]["runs"].size() == 3);
    CHECK_FALSE(data["series"][0].contains("verdict"));
    CHECK(data["series"][1]["flags"] == "-t 1");
    CHECK(data["series"][1]["runs"].size() == 2);
    CHECK(data["series"][1].contains("verdict"));
    // Its band: the gate's reference (the one earlier run of these flags) down to the 5% decode floor.
    CHECK(data["series"][1]["reference"].get<double>() == Approx(20.0));
    CHECK(data["series"][1]["floor_level"].get<double>() == Approx(19.0));
    CHECK_FALSE(data["series"][0].contains("reference"));
}

TEST_CASE("site: without uPlot it says where it looked and how to install it", "[site]") {
    TempDir dir("site");
    test::write_perfgate_csv(dir.sub("bench/cpu_cpu-epyc_2026-11-29.csv"), {run_row("q", "a", "2026-11-29T10:00:00Z", 10.0)});
    auto summary = report::build_site({dir.file("bench"), dir.file("bench"), dir.file("site"), dir.file("nowhere")});
    REQUIRE_FALSE(summary);
    CHECK_THAT(summary.error().message, Catch::Contains("nowhere") && Catch::Contains("scripts/bootstrap"));
    CHECK_FALSE(std::filesystem::exists(dir.file("site")));
}

TEST_CASE("site: acknowledged changes are marked where they start, and each run's commit is a link", "[site]") {
    TempDir dir("site");
    std::vector<ResultRow> rows;
    const double levels[] = {10.0, 10.1, 8.0, 8.1, 8.05};
    for (int i = 0; i < 5; ++i) {
        rows.push_back(run_row("q", "a" + std::to_string(i), fmt::format("2026-11-29T1{}:00:00Z", i), levels[i]));
        rows.back().runtime_commit = i < 2 ? "1111111111111111" : "2222222222222222";
    }
    test::write_perfgate_csv(dir.sub("bench/cpu_cpu-epyc_2026-11-29.csv"), rows);
    test::write_file(dir.sub("thresholds/default.json"), test::read_file(test::source_path("thresholds/default.json").string()));
    test::write_file(dir.sub("thresholds/acknowledgements.json"),
                     R"({"acknowledgements": [{"host": "cpu-epyc", "runtime": "llama-bench", "model": "q",
                         "metric": "decode_tok_s", "from": "2026-11-29T12:00:00Z", "commit": "2222222",
                         "why": "smaller KV cache <on purpose>"}]})");
    report::SiteOptions o{dir.file("bench"), dir.file("thresholds"), dir.file("site"), fake_uplot(dir)};
    o.commit_urls["llama-bench"] = "https://example.org/c/{commit}";
    REQUIRE(report::build_site(o));
    const auto page = test::read_file(dir.file("site/index.html"));
    const auto data = embedded_data(page);
    REQUIRE(data["series"].size() == 1);
    const auto& s = data["series"][0];
    REQUIRE(s["acknowledged"].size() == 1);
    CHECK(s["acknowledged"][0]["index"] == 2);  // the first run at or after "from"
    CHECK(s["commit_url"] == "https://example.org/c/{commit}");
    // In words under the chart, the reason as text; the latest run's commit linked in the pairs table.
    CHECK(page.find("acknowledged from 2026-11-29T12:00:00Z (from run a2)") != std::string::npos);
    CHECK(page.find("smaller KV cache &lt;on purpose&gt;") != std::string::npos);
    CHECK(page.find("(acknowledgements.json:1)") != std::string::npos);
    CHECK(page.find(dir.file("thresholds")) == std::string::npos);  // no folder of this machine
    CHECK(page.find("<a class=\"commit\" href=\"https://example.org/c/2222222222222222\"><code>222222222222</code></a>") !=
          std::string::npos);
    // Without a URL for the runtime the commit is shown, not linked.
    o.commit_urls.clear();
    REQUIRE(report::build_site(o));
    const auto plain = test::read_file(dir.file("site/index.html"));
    CHECK(plain.find("<code>222222222222</code>") != std::string::npos);
    CHECK(plain.find("class=\"commit\"") == std::string::npos);
}

TEST_CASE("site: --commit-url takes RUNTIME=URL with {commit} once, http(s) only", "[site]") {
    auto ok = report::parse_commit_url("llama-bench=https://github.com/ggml-org/llama.cpp/commit/{commit}");
    REQUIRE(ok);
    CHECK(ok->first == "llama-bench");
    CHECK(ok->second == "https://github.com/ggml-org/llama.cpp/commit/{commit}");
    for (const char* bad : {"https://x/{commit}", "=https://x/{commit}", "rt=https://x/", "rt=javascript:alert(1)//{commit}",
                            "rt=https://x/{commit}/{commit}", "rt=ftp://x/{commit}"}) {
        INFO(bad);
        auto r = report::parse_commit_url(bad);
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("--commit-url") && Catch::Contains("{commit}"));
    }
}

TEST_CASE("site: runtimes side by side only like for like, or labelled", "[site]") {
    TempDir dir("site");
    auto row = [](const std::string& runtime, const std::string& model, const std::string& format, double decode) {
        ResultRow r = run_row(model, "r-" + runtime, "2026-11-29T10:00:00Z", decode);
        r.runtime = runtime;
        r.format = format;
        r.host = "h200";
        r.backend = "cuda";
        return r;
    };
    test::write_perfgate_csv(dir.sub("bench/cuda_h200_2026-11-29.csv"),
                             {row("llama-bench", "same", "Q4_0", 100.0), row("other", "same", "Q4_0", 50.0),
                              row("llama-bench", "unlike", "Q4_0", 100.0), row("other", "unlike", "bf16", 10.0)});
    test::write_file(dir.sub("thresholds/default.json"), test::read_file(test::source_path("thresholds/default.json").string()));
    REQUIRE(report::build_site({dir.file("bench"), dir.file("thresholds"), dir.file("site"), fake_uplot(dir)}));
    const auto page = test::read_file(dir.file("site/index.html"));
    const auto data = embedded_data(page);
    REQUIRE(data["hosts"][0]["comparisons"].size() == 1);
    const auto& models = data["hosts"][0]["comparisons"][0]["models"];
    REQUIRE(models.size() == 2);
    CHECK(models[0]["model"] == "same");
    CHECK(models[0]["like_for_like"] == true);
    CHECK(models[0]["decode_ratio"].get<double>() == Approx(2.0));
    CHECK(models[1]["like_for_like"] == false);
    CHECK(models[1]["decode_ratio"].get<double>() == Approx(10.0));
    CHECK(page.find("<td>yes</td>") != std::string::npos);
    CHECK(page.find("not like for like: Q4_0 against bf16") != std::string::npos);
    CHECK(page.find("<td class=\"num unlike\">10.000</td>") != std::string::npos);
}
