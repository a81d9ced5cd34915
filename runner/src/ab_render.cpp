#include "perfgate/core/json_optional.hpp"  // optional readings as null
#include "perfgate/runner/ab_render.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgate/core/console.hpp"
#include "perfgate/core/escape.hpp"

namespace perfgate::runner {
namespace {

const gates::PairedCheck* check_of(const AbModelResult& m, const std::string& metric) {
    for (const auto& c : m.checks)
        if (c.metric == metric) return &c;
    return nullptr;
}

// Bounds of a wide interval can be astronomically large after exp(); beyond +-1000% the digits
// say nothing more, so the display is capped (JSON keeps the numbers).
std::string percent(double fraction) {
    if (fraction > 10.0) return ">+1000%";
    return fmt::format("{:+.1f}%", fraction * 100.0);
}

// "-3.2% [-6.0%, -0.4%] p=0.031": the change, its interval and the one-sided p of "head slower".
std::string cell(const gates::PairedCheck* c) {
    if (!c || !c->change) return "-";
    std::string s = percent(*c->change);
    if (c->interval) s += fmt::format(" [{}, {}]", percent(c->interval->low), percent(c->interval->high));
    if (c->p_slower) s += fmt::format(" p={:.3g}", *c->p_slower);
    return s;
}

std::string verdict_line(const AbReport& r) {
    return ab_outcome(r) == Outcome::fail ? "ab: FAIL\n" : "ab: PASS\n";
}

// The gate's colours (gates/src/render_text.cpp): a reading aid on a terminal only.
std::string painted_verdict(const std::string& verdict, std::size_t width, bool color) {
    const std::string pad(width > verdict.size() ? width - verdict.size() : 0, ' ');
    if (verdict == "regressed" || verdict == "failed") return paint(verdict, Color::red, color) + pad;
    if (verdict == "inconclusive") return paint(verdict, Color::yellow, color) + pad;
    if (verdict == "improved") return paint(verdict, Color::green, color) + pad;
    return verdict + pad;
}

std::string render_text(const AbReport& r, bool color) {
    using Row = std::array<std::string, 6>;
    std::vector<Row> rows{{"VERDICT", "MODEL", "DECODE CHANGE [CI] p", "PREFILL CHANGE [CI] p", "ROUNDS", "REASON"}};
    for (const auto& m : r.models)
        rows.push_back({console_text(m.verdict), console_text(m.model), cell(check_of(m, "decode_tok_s")),
                        cell(check_of(m, "prefill_tok_s")), std::to_string(m.rounds), console_text(m.reason)});
    std::array<std::size_t, 5> w{};
    for (const auto& row : rows)
        for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::max(w[i], console_width(row[i]));
    std::string out = fmt::format("perfgate ab: {} on host {}, base {} vs head {}\n", console_text(r.runtime),
                                  console_text(r.host), console_text(r.base_binary), console_text(r.head_binary));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        out += i == 0 ? fmt::format("{:<{}}", row[0], w[0]) : painted_verdict(row[0], w[0], color);
        out += fmt::format("  {:<{}}  {:<{}}  {:<{}}  {:>{}}  {}\n", row[1], w[1], row[2], w[2], row[3], w[3], row[4],
                           w[4], row[5]);
    }
    out += fmt::format("\nchange = geometric mean of head/base per round - 1; CI two-sided at {:.2f}% at the last look; p one-sided "
                       "Wilcoxon signed-rank (head slower); rounds {}..{}\n",
                       r.levels.last * 100, r.stop.min_rounds, r.stop.max_rounds);
    for (const auto& n : r.notes) out += "note: " + console_text(n) + "\n";
    if (!r.csv.empty()) out += "note: both arms recorded in " + console_text(r.csv.string()) + " (column arm)\n";
    const bool fail = ab_outcome(r) == Outcome::fail;
    return out + "ab: " + paint(fail ? "FAIL" : "PASS", fail ? Color::red : Color::green, color) + "\n";
}

std::string render_markdown(const AbReport& r) {
    // Data goes through markdown_text (not code spans: a backtick in a name would end one).
    std::string out = fmt::format("### perfgate ab: {} on {}\n\nbase {} vs head {}\n\n", markdown_text(r.runtime),
                                  markdown_text(r.host), markdown_text(r.base_binary), markdown_text(r.head_binary));
    out += "| Verdict | Model | Decode change [CI] p | Prefill change [CI] p | Rounds | Reason |\n";
    out += "|---|---|---|---|---:|---|\n";
    for (const auto& m : r.models)
        out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", markdown_text(m.verdict), markdown_text(m.model),
                           cell(check_of(m, "decode_tok_s")), cell(check_of(m, "prefill_tok_s")), m.rounds,
                           markdown_text(m.reason));
    out += fmt::format("\nCI two-sided at {:.2f}% at the last look ({:.2f}% before it); p one-sided Wilcoxon "
                       "signed-rank (head slower).\n",
                       r.levels.last * 100, r.levels.interim * 100);
    for (const auto& n : r.notes) out += "\n- " + markdown_text(n);
    out += "\n\n**" + verdict_line(r).substr(0, verdict_line(r).size() - 1) + "**\n";
    return out;
}


std::string render_json(const AbReport& r) {
    nlohmann::json j;
    j["runtime"] = r.runtime;
    j["host"] = r.host;
    j["run_id"] = r.run_id;
    j["base_binary"] = r.base_binary;
    j["head_binary"] = r.head_binary;
    j["csv"] = r.csv.string();
    j["min_rounds"] = r.stop.min_rounds;
    j["max_rounds"] = r.stop.max_rounds;
    j["alpha"] = r.alpha;
    j["confidence_last_look"] = r.levels.last;
    j["confidence_interim_looks"] = r.levels.interim;
    j["models"] = nlohmann::json::array();
    for (const auto& m : r.models) {
        nlohmann::json jm{{"model", m.model}, {"runtime", m.runtime}, {"rounds", m.rounds}, {"status", m.status},
                          {"reason", m.reason}, {"verdict", m.verdict}, {"metrics", nlohmann::json::array()}};
        for (const auto& c : m.checks)
            jm["metrics"].push_back({{"metric", c.metric},
                                     {"verdict", gates::to_string(c.verdict)},
                                     {"rounds", c.rounds},
                                     {"floor", c.floor},
                                     {"change", c.change},
                                     {"ci_low", c.interval ? nlohmann::json(c.interval->low) : nlohmann::json()},
                                     {"ci_high", c.interval ? nlohmann::json(c.interval->high) : nlohmann::json()},
                                     {"p_slower", c.p_slower},
                                     {"p_faster", c.p_faster}});
        j["models"].push_back(jm);
    }
    j["notes"] = r.notes;
    j["result"] = ab_outcome(r) == Outcome::fail ? "fail" : "pass";
    // Invalid UTF-8 in a name must not throw: replaced, as in the gate's JSON.
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::optional<AbFormat> ab_format_from_string(std::string_view name) {
    if (name == "text") return AbFormat::text;
    if (name == "markdown") return AbFormat::markdown;
    if (name == "json") return AbFormat::json;
    return std::nullopt;
}

std::string render_ab(const AbReport& report, AbFormat format, bool color) {
    switch (format) {
        case AbFormat::text: return render_text(report, color);
        case AbFormat::markdown: return render_markdown(report);
        case AbFormat::json: return render_json(report);
    }
    return render_text(report, color);
}

}  // namespace perfgate::runner
