#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

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
    m.checks.push_back(gates::decide_paired("decode_tok_s", base, head_decode, 0.05, 0.99));
    m.checks.push_back(gates::decide_paired("prefill_tok_s", base, base, 0.10, 0.99));
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
    CHECK(md.find("Decode base → head: change [CI] p") != std::string::npos);
    CHECK(md.find("100.0 tok/s → 90.0 tok/s: -10.0%") != std::string::npos);
    const auto j = nlohmann::json::parse(render_ab(r, AbFormat::json));
    CHECK(j["models"][0]["metrics"][0]["base_level"].get<double>() == Approx(100.0));
    CHECK(j["models"][0]["metrics"][0]["head_level"].get<double>() == Approx(90.0).epsilon(0.001));
    CHECK(j["result"] == "fail");
    CHECK(j["models"][0]["metrics"][0]["metric"] == "decode_tok_s");
    CHECK(j["models"][0]["metrics"][0]["ci_high"].get<double>() < 0);
    CHECK(ab_format_from_string("junit") == std::nullopt);
}

TEST_CASE("A/B false-alarm bound: per model, and for the whole run over its models", "[runner][ab]") {
    const auto levels = gates::sequential_look_levels(0.01, 5, 10, 3);
    const auto one = false_alarm_note(levels, 0.01, 3, 1);
    CHECK(one.find("false alarms at most 1% per model over 3 metrics") != std::string::npos);
    CHECK(one.find("union bound") == std::string::npos);
    CHECK(false_alarm_note(levels, 0.01, 3, 4).find("over the 4 models of this run at most 4% (union bound)") !=
          std::string::npos);
    CHECK(false_alarm_note(levels, 0.05, 3, 40).find("at most 100% (union bound)") != std::string::npos);
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
