#include "perfgate/core/json_optional.hpp"  // optional readings as null
#include "perfgate/runner/ab_render.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "perfgate/core/console.hpp"
#include "perfgate/core/metric.hpp"
#include "perfgate/core/escape.hpp"
#include "perfgate/core/file_write.hpp"
#include "perfgate/gates/junit.hpp"
#include "percent_text.hpp"

namespace perfgate::runner {
namespace {

const gates::PairedCheck* check_of(const AbModelResult& m, const std::string& metric) {
    for (const auto& c : m.checks)
        if (c.metric == metric) return &c;
    return nullptr;
}

using detail::percent;  // capped at +1000%: JSON keeps the numbers

// "-3.2% [-6.0%, -0.4%] p=0.031": the change, its interval and the one-sided p of "head slower".
std::string cell(const gates::PairedCheck* c) {
    if (!c || !c->change) return "-";
    std::string s = percent(*c->change);
    if (c->interval) s += fmt::format(" [{}, {}]", percent(c->interval->low), percent(c->interval->high));
    if (c->p_slower) s += fmt::format(" p={:.3g}", *c->p_slower);
    return s;
}

// The markdown cell: both arms' levels, then the change, and the smallest worsening the decision
// could have found (the comment a pull request shows, as compare-llama-bench.py's table does).
std::string levels_cell(const gates::PairedCheck* c) {
    if (!c || !c->base_level || !c->head_level) return cell(c);
    const Metric& m = perfgate::metric(c->metric);
    const std::string mde = c->min_detectable_effect ? fmt::format(" (MDE {:.1f}%)", *c->min_detectable_effect * 100) : "";
    return fmt::format("{} → {}: {}{}", display_value(m, *c->base_level), display_value(m, *c->head_level), cell(c), mde);
}

// The metrics some model has a reading of, in the metric table's order: one column each.
std::vector<std::string> shown_metrics(const AbReport& r) {
    std::vector<std::string> out;
    for (const auto& key : gated_metric_keys())
        for (const auto& m : r.models)
            if (auto* c = check_of(m, key); c && c->change && std::find(out.begin(), out.end(), key) == out.end())
                out.push_back(key);
    // A timed run's decode and prefill always have a column (one that measured nothing still shows
    // its table); a counted run shows its instruction counts only.
    const bool counted = std::any_of(out.begin(), out.end(), [](const std::string& k) {
        return perfgate::metric(k).measure == Measure::instructions;
    });
    if (!counted)
        for (const char* key : {"decode_tok_s", "prefill_tok_s"})
            if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
    std::stable_sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
        const auto& order = gated_metric_keys();
        return std::find(order.begin(), order.end(), a) < std::find(order.begin(), order.end(), b);
    });
    return out;
}

// "DECODE", "PEAK MEMORY"
std::string upper_label(const std::string& key) {
    std::string s(perfgate::metric(key).label);
    for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

// FAIL on a regression or a failed run; INCONCLUSIVE (exit 0 still) when a model could neither
// show a regression nor rule one out, so that a too-short run is never read as a pass; else PASS.
enum class AbLine { pass, inconclusive, fail };

AbLine ab_line(const AbReport& r) {
    if (ab_outcome(r) == Outcome::fail) return AbLine::fail;
    for (const auto& m : r.models)
        if (m.verdict == gates::Verdict::inconclusive) return AbLine::inconclusive;
    return AbLine::pass;
}

std::string verdict_line(const AbReport& r, bool color) {
    // Nothing measured is no pass: every model skipped (did not fit, backend missing, contended).
    if (ab_outcome(r) == Outcome::skip)
        return "ab: " + paint("SKIPPED", Color::yellow, color) +
               fmt::format(" (nothing was measured: {} of {} model{} skipped; no verdict)\n", r.models.size(),
                           r.models.size(), r.models.size() == 1 ? "" : "s");
    std::size_t undecided = 0;
    for (const auto& m : r.models) undecided += m.verdict == gates::Verdict::inconclusive;
    switch (ab_line(r)) {
        case AbLine::fail: return "ab: " + paint("FAIL", Color::red, color) + "\n";
        case AbLine::inconclusive:
            return "ab: " + paint("INCONCLUSIVE", Color::yellow, color) +
                   fmt::format(" ({} of {} model{} neither regressed nor shown unchanged: no regression is ruled out; "
                               "more rounds or a quieter machine can decide)\n",
                               undecided, r.models.size(), r.models.size() == 1 ? "" : "s");
        case AbLine::pass: break;
    }
    return "ab: " + paint("PASS", Color::green, color) + "\n";
}

// The gate's colours (gates::color_of): a reading aid on a terminal only.
std::string painted_verdict(gates::Verdict v, std::size_t width, bool color) {
    const std::string word = gates::to_string(v);
    const std::string pad(width > word.size() ? width - word.size() : 0, ' ');
    const auto c = gates::color_of(v);
    return (c ? paint(word, *c, color) : word) + pad;
}

std::string render_text(const AbReport& r, bool color) {
    // Columns: verdict, model, one per shown metric, rounds, reason (last, not padded).
    const auto shown = shown_metrics(r);
    using Row = std::vector<std::string>;
    Row head{"VERDICT", "MODEL"};
    for (const auto& key : shown) head.push_back(upper_label(key) + " CHANGE [CI] p");
    head.insert(head.end(), {"ROUNDS", "REASON"});
    std::vector<Row> rows{head};
    for (const auto& m : r.models) {
        Row row{gates::to_string(m.verdict), console_text(m.model)};
        for (const auto& key : shown) row.push_back(cell(check_of(m, key)));
        row.insert(row.end(), {std::to_string(m.rounds), console_text(m.reason)});
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> w(head.size() - 1, 0);
    for (const auto& row : rows)
        for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::max(w[i], console_width(row[i]));
    std::string out = fmt::format("perfgate ab: {} on host {}, base {} vs head {}{}\n", console_text(r.runtime),
                                  console_text(r.host), console_text(r.base_binary), console_text(r.head_binary),
                                  r.replayed_from.empty() ? "" : " (replayed from recorded rows, no launch made)");
    const std::size_t rounds_column = head.size() - 2;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        out += i == 0 ? fmt::format("{:<{}}", row[0], w[0]) : painted_verdict(r.models[i - 1].verdict, w[0], color);
        for (std::size_t k = 1; k < w.size(); ++k)
            out += k == rounds_column ? fmt::format("  {:>{}}", row[k], w[k]) : fmt::format("  {:<{}}", row[k], w[k]);
        out += "  " + row.back() + "\n";
    }
    out += fmt::format("\nchange = geometric mean of head/base per round - 1; CI two-sided at {:.2f}% at the last look; p one-sided "
                       "Wilcoxon signed-rank (head slower); unchanged = the {:.1f}% interval within the floor; rounds {}..{}\n",
                       r.levels.last * 100, r.levels.equivalence_last * 100, r.stop.min_rounds, r.stop.max_rounds);
    for (const auto& n : r.notes) out += "note: " + console_text(n) + "\n";
    if (!r.csv.empty()) out += "note: both arms recorded in " + console_text(r.csv.string()) + " (column arm)\n";
    return out + verdict_line(r, color);
}

std::string render_markdown(const AbReport& r) {
    // Data goes through markdown_text (not code spans: a backtick in a name would end one).
    std::string out = fmt::format("### perfgate ab: {} on {}\n\nbase {} vs head {}{}\n\n", markdown_text(r.runtime),
                                  markdown_text(r.host), markdown_text(r.base_binary), markdown_text(r.head_binary),
                                  r.replayed_from.empty() ? "" : " (replayed from recorded rows, no launch made)");
    const auto shown = shown_metrics(r);
    out += "| Verdict | Model |";
    for (const auto& key : shown) {
        std::string label(perfgate::metric(key).label);
        label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
        out += " " + label + " base → head: change [CI] p (MDE) |";
    }
    out += " Rounds | Reason |\n|---|---|";
    for (std::size_t k = 0; k < shown.size(); ++k) out += "---|";
    out += "---:|---|\n";
    for (const auto& m : r.models) {
        out += fmt::format("| {} | {} |", gates::to_string(m.verdict), markdown_text(m.model));
        for (const auto& key : shown) out += " " + markdown_text(levels_cell(check_of(m, key))) + " |";
        out += fmt::format(" {} | {} |\n", m.rounds, markdown_text(m.reason));
    }
    out += fmt::format("\nCI two-sided at {:.2f}% at the last look ({:.2f}% before it); p one-sided Wilcoxon "
                       "signed-rank (head slower).\n",
                       r.levels.last * 100, r.levels.interim * 100);
    for (const auto& n : r.notes) out += "\n- " + markdown_text(n);
    const std::string line = verdict_line(r, false);
    out += "\n\n**" + line.substr(0, line.size() - 1) + "**\n";
    return out;
}


// One case per model and metric decided (a model that ended without readings: one case for the
// model). A regression or a failed run is a failure; inconclusive is skipped with its reason, so a
// CI's test view never counts it as passed; unchanged and improved pass with their numbers.
std::string render_junit(const AbReport& r) {
    gates::JunitDocument doc;
    doc.suite = "perfgate.ab";
    doc.properties = {{"base", r.base_binary}, {"head", r.head_binary}, {"host", r.host}, {"run_id", r.run_id}};
    for (const auto& n : r.notes) doc.properties.emplace_back("note", n);
    const std::string classname = fmt::format("perfgate.ab.{}.{}", r.runtime, r.host);
    const auto outcome_of = [](gates::Verdict v) {
        if (gates::fails_gate(v)) return gates::JunitCase::Outcome::failed;
        if (v == gates::Verdict::unchanged || v == gates::Verdict::improved) return gates::JunitCase::Outcome::passed;
        return gates::JunitCase::Outcome::skipped;
    };
    for (const auto& m : r.models) {
        const auto add = [&](const std::string& name, gates::Verdict v, const std::string& text) {
            gates::JunitCase c{classname, name, outcome_of(v), gates::to_string(v),
                               fmt::format("{}: {}", gates::to_string(v), text), {}};
            doc.cases.push_back(std::move(c));
        };
        if (m.checks.empty() || m.verdict == gates::Verdict::failed || m.verdict == gates::Verdict::skipped) {
            add(m.model, m.verdict, fmt::format("{}{}{} ({} rounds)", m.status, m.reason.empty() ? "" : ": ", m.reason, m.rounds));
            continue;
        }
        for (const auto& c : m.checks)
            add(m.model + " " + c.metric, c.verdict, fmt::format("{} ({} rounds){}", levels_cell(&c), c.rounds,
                                                                 m.reason.empty() ? "" : "; " + m.reason));
    }
    return gates::write_junit(doc);
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
    j["launch_reading"] = to_string(r.reading);
    j["confidence_last_look"] = r.levels.last;
    j["confidence_interim_looks"] = r.levels.interim;
    j["equivalence_confidence_last_look"] = r.levels.equivalence_last;
    j["equivalence_confidence_interim_looks"] = r.levels.equivalence_interim;
    if (!r.replayed_from.empty()) j["replayed_from"] = r.replayed_from;
    j["models"] = nlohmann::json::array();
    for (const auto& m : r.models) {
        nlohmann::json jm{{"model", m.model}, {"runtime", m.runtime}, {"rounds", m.rounds}, {"status", m.status},
                          {"reason", m.reason}, {"verdict", gates::to_string(m.verdict)}, {"seconds", m.seconds},
                          {"metrics", nlohmann::json::array()}};
        for (const auto& c : m.checks)
            jm["metrics"].push_back({{"metric", c.metric},
                                     {"verdict", gates::to_string(c.verdict)},
                                     {"rounds", c.rounds},
                                     {"floor", c.floor},
                                     {"change", c.change},
                                     {"base_level", c.base_level},
                                     {"head_level", c.head_level},
                                     {"ci_low", c.interval ? nlohmann::json(c.interval->low) : nlohmann::json()},
                                     {"ci_high", c.interval ? nlohmann::json(c.interval->high) : nlohmann::json()},
                                     {"equivalence_low", c.equivalence_interval ? nlohmann::json(c.equivalence_interval->low) : nlohmann::json()},
                                     {"equivalence_high", c.equivalence_interval ? nlohmann::json(c.equivalence_interval->high) : nlohmann::json()},
                                     {"min_detectable_effect", c.min_detectable_effect},
                                     {"p_slower", c.p_slower},
                                     {"p_faster", c.p_faster}});
        j["models"].push_back(jm);
    }
    j["notes"] = r.notes;
    j["result"] = ab_outcome(r) == Outcome::skip    ? "skipped"
                  : ab_line(r) == AbLine::fail         ? "fail"
                  : ab_line(r) == AbLine::inconclusive ? "inconclusive"
                                                       : "pass";
    // Invalid UTF-8 in a name must not throw: replaced, as in the gate's JSON.
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::optional<AbFormat> ab_format_from_string(std::string_view name) {
    if (name == "text") return AbFormat::text;
    if (name == "markdown") return AbFormat::markdown;
    if (name == "json") return AbFormat::json;
    if (name == "junit") return AbFormat::junit;
    return std::nullopt;
}

std::string render_ab(const AbReport& report, AbFormat format, bool color) {
    switch (format) {
        case AbFormat::text: return render_text(report, color);
        case AbFormat::markdown: return render_markdown(report);
        case AbFormat::json: return render_json(report);
        case AbFormat::junit: return render_junit(report);
    }
    return render_text(report, color);
}

Status write_ab_summary(const AbReport& report, const std::filesystem::path& dir) {
    for (auto [name, format] : {std::pair{"ab.md", AbFormat::markdown}, std::pair{"ab.junit.xml", AbFormat::junit},
                                std::pair{"ab.json", AbFormat::json}})
        if (auto st = replace_file((dir / name).string(), render_ab(report, format)); !st) return st;
    return Ok{};
}

Status prepare_ab_summary_dir(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
        return make_error("--summary-dir " + dir.string() + ": not a folder that can be created" +
                          (ec ? " (" + ec.message() + ")" : std::string()));
    return Ok{};
}

}  // namespace perfgate::runner
