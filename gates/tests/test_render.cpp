#include <catch2/catch.hpp>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "perfgate/gates/render.hpp"

using namespace perfgate::gates;

namespace {

GateReport sample_report() {
    GateReport r;
    PairReport bad;
    bad.model = "evil<&\"'>|model";
    bad.runtime = "mlxcel";
    bad.host = "h1";
    bad.harness = "text";
    MetricCheck m;
    m.metric = "decode_tok_s";
    m.verdict = Verdict::regressed;
    m.baseline_value = 100;
    m.current_value = 70;
    m.change = -0.3;
    m.reason = "line1\nline2 <b> & \x01";
    bad.metrics.push_back(m);
    bad.verdict = Verdict::regressed;
    bad.warnings.push_back("fingerprint changed: a -> b");
    PairReport fine;
    fine.model = "fine";
    fine.runtime = "mlxcel";
    fine.host = "h1";
    fine.harness = "text";
    MetricCheck u;
    u.metric = "decode_tok_s";
    fine.metrics.push_back(u);
    r.pairs = {fine, bad};
    sort_worst_first(r.pairs);
    r.warnings.push_back("thresholds/default.json changed");
    return r;
}

}  // namespace

TEST_CASE("worst first, in every format", "[gates][render]") {
    auto r = sample_report();
    CHECK(r.pairs.front().verdict == Verdict::regressed);
    auto text = render_text(r);
    CHECK(text.find("REGRESSED") < text.find("unchanged"));
    CHECK_THAT(text, Catch::Contains("-30.0%") && Catch::Contains("gate: FAIL"));
}

TEST_CASE("JUnit XML escapes everything and counts failures", "[gates][render]") {
    auto xml = render_junit(sample_report());
    CHECK_THAT(xml, Catch::Contains("evil&lt;&amp;&quot;&apos;&gt;|model"));
    CHECK(xml.find("evil<") == std::string::npos);
    CHECK(xml.find('\x01') == std::string::npos);
    CHECK(xml.find("<b>") == std::string::npos);
    CHECK_THAT(xml, Catch::Contains("tests=\"2\" failures=\"1\""));
    CHECK_THAT(xml, Catch::Contains("<failure"));
}

TEST_CASE("JUnit XML parses back with its elements, attributes and the names as written", "[gates][render]") {
    namespace pt = boost::property_tree;
    auto r = sample_report();
    r.notes.push_back("a note");
    std::istringstream in(render_junit(r));
    pt::ptree doc;
    REQUIRE_NOTHROW(pt::read_xml(in, doc));
    const auto& suites = doc.get_child("testsuites");
    CHECK(suites.get<std::string>("<xmlattr>.name") == "perfgate");
    CHECK(suites.get<int>("<xmlattr>.tests") == 2);
    CHECK(suites.get<int>("<xmlattr>.failures") == 1);
    CHECK(suites.get<int>("<xmlattr>.skipped") == 0);
    const auto& suite = suites.get_child("testsuite");
    CHECK(suite.get<std::string>("<xmlattr>.name") == "perfgate.gate");
    CHECK(suite.get<int>("<xmlattr>.errors") == 0);
    std::vector<std::pair<std::string, std::string>> properties;
    for (const auto& [tag, p] : suite.get_child("properties"))
        properties.emplace_back(p.get<std::string>("<xmlattr>.name"), p.get<std::string>("<xmlattr>.value"));
    CHECK(properties == std::vector<std::pair<std::string, std::string>>{
                            {"warning", "thresholds/default.json changed"}, {"note", "a note"}});
    std::vector<std::string> names;
    for (const auto& [tag, c] : suite)
        if (tag == "testcase") names.push_back(c.get<std::string>("<xmlattr>.name"));
    REQUIRE(names.size() == 2);
    CHECK(names[0] == "evil<&\"'>|model (mlxcel, h1, text) decode_tok_s");  // worst first
    const auto& failure = suite.get_child("testcase").get_child("failure");
    CHECK(failure.get<std::string>("<xmlattr>.type") == "regressed");
    // \x01, which XML 1.0 cannot carry, became '?'; markup in the reason is text again.
    CHECK_THAT(failure.get<std::string>("<xmlattr>.message"), Catch::Contains("line2 <b> & ?"));
    CHECK_THAT(failure.data(), Catch::Contains("line1\nline2 <b> & ?") && Catch::Contains("\nrun: (in memory)"));
}

TEST_CASE("JUnit failures carry body text and every testcase a time", "[gates][render]") {
    auto r = sample_report();
    r.pairs[0].current_source = "cpu_h1_2026-12-01.csv:3";
    r.pairs[0].baseline_source = "cpu_h1_2026-11-30.csv:7";
    const auto xml = render_junit(r);
    // <failure ...>body</failure>, never self-closed: GitLab shows the body.
    CHECK(xml.find("<failure type=\"regressed\"") != std::string::npos);
    const auto open = xml.find("<failure");
    const auto close = xml.find("</failure>");
    REQUIRE(open != std::string::npos);
    REQUIRE(close != std::string::npos);
    const std::string body = xml.substr(xml.find('>', open) + 1, close - xml.find('>', open) - 1);
    CHECK_THAT(body, Catch::Contains("-30.0%") && Catch::Contains("run: cpu_h1_2026-12-01.csv:3") &&
                         Catch::Contains("baseline: cpu_h1_2026-11-30.csv:7"));
    std::size_t cases = 0, timed = 0;
    for (auto at = xml.find("<testcase "); at != std::string::npos; at = xml.find("<testcase ", at + 1)) {
        ++cases;
        const auto end = xml.find('>', at);
        if (xml.substr(at, end - at).find(" time=\"") != std::string::npos) ++timed;
    }
    CHECK(cases == 2);
    CHECK(timed == cases);
}

TEST_CASE("markdown escapes table pipes and HTML, JSON parses back", "[gates][render]") {
    auto r = sample_report();
    auto md = render_markdown(r);
    CHECK_THAT(md, Catch::Contains("evil&lt;&amp;\"'&gt;\\|model"));
    CHECK_THAT(md, Catch::Contains("perfgate: FAIL"));
    auto doc = nlohmann::json::parse(render_json(r));
    CHECK(doc["exit_code"] == 1);
    CHECK(doc["pairs"].size() == 2);
    CHECK(doc["pairs"][0]["model"] == "evil<&\"'>|model");
    CHECK(doc["pairs"][0]["metrics"][0]["change"].get<double>() == Approx(-0.3));
    CHECK(report_format_from_string("junit") == ReportFormat::junit);
    CHECK_FALSE(report_format_from_string("xml"));
}

TEST_CASE("a crafted model name adds no rows, columns, test cases or XML", "[gates][render][security]") {
    GateReport r = sample_report();
    r.pairs[0].model = "x</testcase><testcase name=\"pwned\"/>|extra column|\n| forged | row |\r\n- note";
    auto md = render_markdown(r);
    // One header, one separator and one line per metric; no line starts a forged row.
    std::size_t table_lines = 0, pipes_in_bad_line = 0;
    std::istringstream lines(md);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("|", 0) == 0) ++table_lines;
        if (line.find("pwned") != std::string::npos)
            for (std::size_t i = 0; i < line.size(); ++i)
                if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++pipes_in_bad_line;
        CHECK(line.rfind("| forged", 0) != 0);
    }
    CHECK(table_lines == 3 + 3);  // header, separator and one metric line in each of the two tables
    CHECK(pipes_in_bad_line == 9);  // the table's own 9 column borders, the name's pipes escaped
    auto xml = render_junit(r);
    auto count = [&](const std::string& what) {
        std::size_t n = 0;
        for (auto p = xml.find(what); p != std::string::npos; p = xml.find(what, p + 1)) ++n;
        return n;
    };
    CHECK(count("<testcase ") == 2);
    CHECK(count("</testcase>") == 2);
    CHECK(xml.find("pwned\"") == std::string::npos);
    // The line break stays in the attribute value, where XML readers see it as a space.
    CHECK_THAT(xml, Catch::Contains("x&lt;/testcase&gt;&lt;testcase name=&quot;pwned&quot;/&gt;|extra column|\n"));
}

TEST_CASE("JSON written pair by pair is the text dump(2) gives for the whole document", "[gates][render][bounds]") {
    // Hardening issue, item 6: the JSON report no longer builds one document of every pair (a
    // million pairs took 17.9 GB); the text must stay exactly what it was.
    auto r = sample_report();
    r.notes = {"note one", "note \"two\""};
    r.pairs[1].current_model = "bad utf-8 \xff here";
    for (const auto& report : {r, GateReport{}}) {
        const auto text = render_json(report);
        const auto canonical =
            nlohmann::json::parse(text).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        CHECK(text == canonical);
    }
    CHECK_THAT(render_json(GateReport{}), Catch::Contains("\"pairs\": [],"));
}
