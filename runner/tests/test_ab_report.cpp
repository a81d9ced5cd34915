#include <catch2/catch.hpp>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "perfgate/runner/ab.hpp"
#include "perfgate/runner/ab_render.hpp"

using namespace perfgate::runner;
namespace gates = perfgate::gates;

namespace {
AbModelResult model(const std::string& name, const std::vector<double>& head_decode) {
    AbModelResult m;
    m.model = name;
    m.runtime = "llama-bench";
    const std::vector<double> base(head_decode.size(), 100.0);
    m.checks.push_back(gates::decide_paired("decode_tok_s", base, head_decode, 0.05, 0.99, 0.90));
    m.checks.push_back(gates::decide_paired("prefill_tok_s", base, base, 0.10, 0.99, 0.90));
    m.rounds = head_decode.size();
    m.verdict = gates::worse(m.checks[0].verdict, m.checks[1].verdict);
    return m;
}
}  // namespace

TEST_CASE("A/B outcome: a regressed or failed model fails, skips alone skip", "[runner][ab]") {
    AbReport r;
    r.models.push_back(model("same", {100.2, 99.9, 100.1, 99.8, 100}));
    CHECK(r.models[0].verdict == gates::Verdict::unchanged);
    CHECK(ab_outcome(r) == Outcome::pass);
    r.models.push_back(model("slower", {90, 91, 89, 90.5, 89.5}));
    CHECK(r.models[1].verdict == gates::Verdict::regressed);
    CHECK(ab_outcome(r) == Outcome::fail);

    AbReport skipped;
    skipped.models.push_back({});
    skipped.models[0].verdict = gates::Verdict::skipped;
    CHECK(ab_outcome(skipped) == Outcome::skip);
    skipped.models[0].verdict = gates::Verdict::failed;
    CHECK(ab_outcome(skipped) == Outcome::fail);
}

TEST_CASE("A/B report formats: text table, markdown, JSON", "[runner][ab]") {
    AbReport r;
    r.runtime = "llama-bench";
    r.host = "h";
    r.levels = {2, 0.999, 0.99};
    r.stop = {3, 4};
    r.models.push_back(model("slower", {90, 91, 89, 90.5, 89.5}));
    const auto text = render_ab(r, AbFormat::text);
    CHECK(text.find("regressed  slower") != std::string::npos);
    CHECK(text.find("ab: FAIL") != std::string::npos);
    const auto md = render_ab(r, AbFormat::markdown);
    CHECK(md.find("| regressed | slower |") != std::string::npos);
    // The pull request's comment shows both arms' levels before the change (geometric means).
    CHECK(md.find("Decode base → head: change [CI] p (MDE)") != std::string::npos);
    CHECK(md.find("(MDE ") != std::string::npos);  // each decided cell states what it could have found
    CHECK(md.find("100.0 tok/s → 90.0 tok/s: -10.0%") != std::string::npos);
    const auto j = nlohmann::json::parse(render_ab(r, AbFormat::json));
    CHECK(j["models"][0]["metrics"][0]["base_level"].get<double>() == Approx(100.0));
    CHECK(j["models"][0]["metrics"][0]["head_level"].get<double>() == Approx(90.0).epsilon(0.001));
    CHECK(j["result"] == "fail");
    CHECK(j["models"][0]["metrics"][0]["metric"] == "decode_tok_s");
    CHECK(j["models"][0]["metrics"][0]["ci_high"].get<double>() < 0);
    CHECK(ab_format_from_string("xml") == std::nullopt);
}

TEST_CASE("A/B JUnit: a regression fails, inconclusive is skipped (never passed), a failed run fails", "[runner][ab]") {
    namespace pt = boost::property_tree;
    AbReport r;
    r.runtime = "llama-bench";
    r.host = "h";
    r.base_binary = "base/llama-bench";
    r.head_binary = "head/llama-bench";
    r.levels = {2, 0.999, 0.99};
    r.stop = {3, 4};
    r.models.push_back(model("slower", {90, 91, 89, 90.5, 89.5}));
    r.models.push_back(model("noisy", {80, 120, 95, 110, 90}));
    AbModelResult crashed;
    crashed.model = "crashed";
    crashed.status = "FAIL:bench";
    crashed.reason = "exit 134";
    crashed.verdict = gates::Verdict::failed;
    r.models.push_back(crashed);
    REQUIRE(r.models[1].checks[0].verdict == gates::Verdict::inconclusive);
    REQUIRE(ab_format_from_string("junit") == AbFormat::junit);

    std::istringstream in(render_ab(r, AbFormat::junit));
    pt::ptree doc;
    REQUIRE_NOTHROW(pt::read_xml(in, doc));
    const auto& suite = doc.get_child("testsuites").get_child("testsuite");
    CHECK(suite.get<std::string>("<xmlattr>.name") == "perfgate.ab");
    // slower: decode regressed, prefill unchanged; noisy: decode inconclusive, prefill unchanged; crashed: one case.
    CHECK(suite.get<int>("<xmlattr>.tests") == 5);
    CHECK(suite.get<int>("<xmlattr>.failures") == 2);
    CHECK(suite.get<int>("<xmlattr>.skipped") == 1);
    std::map<std::string, std::string> outcome;  // case name -> failure | skipped | passed
    std::string regression_message;
    for (const auto& [tag, c] : suite) {
        if (tag != "testcase") continue;
        const auto name = c.get<std::string>("<xmlattr>.name");
        CHECK(c.get<std::string>("<xmlattr>.classname") == "perfgate.ab.llama-bench.h");
        if (auto f = c.get_child_optional("failure")) {
            outcome[name] = "failure";
            if (name == "slower decode_tok_s") regression_message = f->get<std::string>("<xmlattr>.message");
        } else {
            outcome[name] = c.get_child_optional("skipped") ? "skipped" : "passed";
        }
    }
    CHECK(outcome == std::map<std::string, std::string>{{"slower decode_tok_s", "failure"},
                                                        {"slower prefill_tok_s", "passed"},
                                                        {"noisy decode_tok_s", "skipped"},
                                                        {"noisy prefill_tok_s", "passed"},
                                                        {"crashed", "failure"}});
    // The message is the pull request's cell: both levels and the change.
    CHECK_THAT(regression_message, Catch::Contains("regressed: 100.0 tok/s → 90.0 tok/s: -10.0%"));
}

TEST_CASE("A/B false-alarm bound: alpha for the whole run, split over its models and metrics", "[runner][ab]") {
    const auto one = false_alarm_note(gates::sequential_look_levels(0.01, 5, 10, 3), 0.01, 3, 1);
    CHECK_THAT(one, Catch::Contains("false alarms at most 1% for the whole run, split over its 1 model x 3 metrics"));
    // Four models share the same 1%: each of the 12 decisions gets a twelfth, so the last look's
    // interval is wider than with one model (it was 1% per model, 4% for the run, before).
    const auto four_levels = gates::sequential_look_levels(0.01, 5, 10, 12);
    CHECK(four_levels.last > gates::sequential_look_levels(0.01, 5, 10, 3).last);
    CHECK(four_levels.last == Approx(1 - 2 * 0.9 * 0.01 / 12));
    CHECK_THAT(false_alarm_note(four_levels, 0.01, 3, 4), Catch::Contains("at most 1% for the whole run, split over its 4 models x 3 metrics"));
    // The equivalence test's level is stated and is not split over the decisions.
    CHECK(four_levels.equivalence_last == Approx(1 - 2 * 0.9 * 0.05));
    CHECK_THAT(one, Catch::Contains("two one-sided tests at the floor, 0.9100 at the last look"));
}

TEST_CASE("A/B reports keep escape sequences and HTML in names inert, colour only when asked", "[runner][ab][hardening]") {
    const std::string hostile = "m\x1b[31m</details><img src=x onerror=alert(1)>|x";
    AbReport r;
    r.runtime = "llama-bench";
    r.host = "h";
    r.levels = {2, 0.999, 0.99};
    r.stop = {3, 4};
    r.models.push_back(model(hostile, {90, 91, 89, 90.5, 89.5}));
    r.models[0].reason = "reason naming " + hostile;
    r.notes.push_back("note naming " + hostile);

    const auto text = render_ab(r, AbFormat::text);
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK(text.find("m?[31m</details>") != std::string::npos);
    const auto painted = render_ab(r, AbFormat::text, true);
    CHECK(painted.find("\x1b[31mregressed\x1b[0m") != std::string::npos);
    CHECK(painted.find("\x1b[31m</details>") == std::string::npos);  // only perfgate's own sequences

    const auto md = render_ab(r, AbFormat::markdown);
    CHECK(md.find('\x1b') == std::string::npos);
    CHECK(md.find("<img") == std::string::npos);
    CHECK(md.find("</details>") == std::string::npos);
    // core's markdown_text leaves '(' ')' alone (they mean nothing inside a cell); '|' is escaped.
    CHECK(md.find("&lt;/details&gt;&lt;img src=x onerror=alert(1)&gt;\\|x") != std::string::npos);

    const auto j = nlohmann::json::parse(render_ab(r, AbFormat::json));
    CHECK(j["models"][0]["model"].get<std::string>() == hostile);
    r.models[0].model = "bad \xff utf-8";  // replaced, not thrown
    CHECK_NOTHROW(nlohmann::json::parse(render_ab(r, AbFormat::json)));
}
