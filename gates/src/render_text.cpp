// The console table: one row per pair (runtime/model, decode and prefill side by side), an indented
// line with the reason under every pair that is not simply unchanged, and a one-line summary. Every
// line fits `TextStyle::width` columns; data from the CSVs goes through console_text, so a model
// name cannot carry terminal escape sequences.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "perfgate/core/console.hpp"
#include "perfgate/core/escape.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/core/metric.hpp"
#include "perfgate/gates/render.hpp"
#include "perfgate/gates/samples.hpp"

namespace perfgate::gates {
namespace {

// tok/s with the digits that matter: 213747, 3718, 41.2, 5.05.
std::string rate(const std::optional<double>& v) {
    if (!v) return "-";
    const double a = std::fabs(*v);
    if (a >= 1000) return fmt::format("{:.0f}", *v);
    if (a >= 10) return fmt::format("{:.1f}", *v);
    return fmt::format("{:.2f}", *v);
}

// A tenfold rise says nothing more in more digits (JSON keeps the number).
std::string change_text(const std::optional<double>& c) {
    if (!c) return "";
    if (*c > 9.99) return ">+999%";
    return fmt::format("{:+.1f}%", *c * 100);
}

std::string verdict_word(Verdict v) {
    if (v == Verdict::failed) return "FAILED";
    if (v == Verdict::regressed) return "REGRESSED";
    return to_string(v);
}

// "DECODE tok/s" for decode_tok_s, "PEAK MEMORY MiB" for peak_memory_bytes.
std::string metric_heading(const std::string& metric) {
    const Metric& m = perfgate::metric(metric);
    std::string name(m.label);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
    return name + " " + std::string(m.display_unit);
}

// A reading in the metric's display unit, with the digits that matter.
std::string reading(const std::string& metric, const std::optional<double>& v) {
    if (!v) return rate(v);
    return rate(*v / perfgate::metric(metric).display_scale);
}

std::string pad_right(const std::string& s, std::size_t width) {
    const std::size_t w = console_width(s);
    return w >= width ? s : s + std::string(width - w, ' ');
}
std::string pad_left(const std::string& s, std::size_t width) {
    const std::size_t w = console_width(s);
    return w >= width ? s : std::string(width - w, ' ') + s;
}

// Breaks `text` into lines of at most `width` columns, the first starting with `first`, the others
// with `next`; a word longer than a line (a path) is cut on a code point boundary.
std::vector<std::string> wrap(const std::string& text, const std::string& first, const std::string& next,
                              std::size_t width) {
    std::vector<std::string> lines;
    std::string line;
    auto indent = [&] { return lines.empty() ? first : next; };
    auto room = [&] { return std::max<std::size_t>(width > indent().size() ? width - indent().size() : 0, 10); };
    auto flush = [&] {
        if (!line.empty()) lines.push_back(indent() + line);
        line.clear();
    };
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        std::string word = text.substr(start, end - start);
        start = end + 1;
        if (word.empty()) continue;
        if (!line.empty() && console_width(line) + 1 + console_width(word) > room()) flush();
        while (line.empty() && console_width(word) > room()) {
            std::size_t cut = 0;
            for (std::size_t cols = 0; cut < word.size() && cols < room(); ++cols) {
                ++cut;
                while (cut < word.size() && (static_cast<unsigned char>(word[cut]) & 0xC0) == 0x80) ++cut;
            }
            line = word.substr(0, cut);
            word.erase(0, cut);
            flush();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    flush();
    return lines;
}

// What tells the report's rows apart: the host, prompt target and batch only where they differ
// between the pairs (a run on one host at one prompt length needs none of them on every row).
struct Distinct {
    bool host = false, prompt = false, batch = false;
};

Distinct distinct_of(const std::vector<PairReport>& pairs) {
    Distinct d;
    for (const auto& p : pairs) {
        const auto& first = pairs.front();
        d.host = d.host || p.host != first.host;
        d.prompt = d.prompt || p.prompt_target_len != first.prompt_target_len;
        d.batch = d.batch || p.batch != first.batch;
    }
    return d;
}

std::string compact_title(const PairReport& p, const Distinct& show) {
    std::string t = p.runtime + "/" + p.model;
    if (!p.baseline_runtime.empty() && p.baseline_runtime != p.runtime) t += " vs " + p.baseline_runtime;
    if (!p.harness.empty() && p.harness != "text") t += " [" + p.harness + "]";
    if (show.prompt && p.prompt_target_len) t += fmt::format(" pp{}", *p.prompt_target_len);
    if (show.batch && p.batch) t += fmt::format(" batch {}", *p.batch);
    if (show.host) t += " @" + p.host;
    return console_text(t);
}

// Why the pair is not simply unchanged, as sentences (console-safe).
std::vector<std::string> details_of(const PairReport& p) {
    std::vector<std::string> out;
    if (p.verdict == Verdict::within_noise) {
        // One short line: what could have gone unseen, per metric (the reason holds the rule).
        std::vector<std::string> mdes;
        for (const auto& m : p.metrics)
            if (m.verdict == Verdict::within_noise && m.min_detectable_effect)
                mdes.push_back(fmt::format("{} MDE {:.1f}%", m.metric, *m.min_detectable_effect * 100));
        if (!mdes.empty())
            out.push_back(fmt::format("within noise: a change below the MDE may go unseen ({})", fmt::join(mdes, ", ")));
    } else if (p.verdict != Verdict::unchanged && p.verdict != Verdict::new_pair &&
               p.verdict != Verdict::skipped_as_before) {
        std::vector<std::string> said;
        for (const auto& m : p.metrics) {
            if (m.verdict != p.verdict) continue;
            std::string s = m.reason;
            if (m.change && !m.test.empty())
                s = fmt::format("{} {} (limit {}{}){}{}", m.metric, change_text(m.change),
                                limit_text(perfgate::metric(m.metric), m.max_drop),
                                m.p_value ? fmt::format(", p={:.3g}", *m.p_value) : std::string(),
                                m.reason.empty() ? "" : ": ", m.reason);
            if (!s.empty() && std::find(said.begin(), said.end(), s) == said.end()) said.push_back(s);
        }
        if (said.empty() && !p.reason.empty()) said.push_back(p.reason);
        for (auto& s : said) out.push_back(console_text(s));
    }
    if (p.reruns > 0) out.push_back(fmt::format("after {}", counted(p.reruns, "rerun")));
    for (const auto& w : p.warnings) out.push_back("warning: " + console_text(w));
    return out;
}

struct Cell {
    std::string base, now, change;
    bool present = false;
};

struct Row {
    std::string verdict, title;
    std::optional<Color> color;
    std::vector<Cell> cells;
    std::vector<std::string> details;
};

// The metric columns: those some pair has a reading of, in the gate's order.
std::vector<std::string> metric_columns(const std::vector<PairReport>& pairs) {
    std::vector<std::string> metrics;
    for (const auto& name : gated_metrics())
        for (const auto& p : pairs)
            for (const auto& m : p.metrics)
                if (m.metric == name && (m.baseline_value || m.current_value) &&
                    std::find(metrics.begin(), metrics.end(), name) == metrics.end())
                    metrics.push_back(name);
    return metrics;
}

std::vector<Row> table_rows(const std::vector<PairReport>& pairs, const std::vector<std::string>& metrics) {
    const Distinct show = pairs.empty() ? Distinct{} : distinct_of(pairs);
    std::vector<Row> rows;
    for (const auto& p : pairs) {
        Row r{verdict_word(p.verdict), compact_title(p, show), color_of(p.verdict), {}, details_of(p)};
        for (const auto& name : metrics) {
            Cell c;
            for (const auto& m : p.metrics)
                if (m.metric == name && (m.baseline_value || m.current_value))
                    c = {reading(name, m.baseline_value), reading(name, m.current_value), change_text(m.change), true};
            r.cells.push_back(c);
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

// Column widths: the verdict, the pair, and per metric its baseline, current and change parts and
// the whole cell (at least its heading).
struct Widths {
    std::size_t verdict = 7, title = 4;  // "VERDICT", "PAIR"
    std::vector<std::size_t> base, now, change, cell;
};

Widths widths_of(const std::vector<Row>& rows, const std::vector<std::string>& metrics, std::size_t line_width) {
    const std::size_t n = metrics.size();
    Widths w{7, 4, std::vector<std::size_t>(n, 1), std::vector<std::size_t>(n, 1), std::vector<std::size_t>(n, 0),
             std::vector<std::size_t>(n)};
    for (const auto& r : rows) {
        w.verdict = std::max(w.verdict, r.verdict.size());
        w.title = std::max(w.title, console_width(r.title));
        for (std::size_t k = 0; k < n; ++k) {
            w.base[k] = std::max(w.base[k], r.cells[k].base.size());
            w.now[k] = std::max(w.now[k], r.cells[k].now.size());
            w.change[k] = std::max(w.change[k], r.cells[k].change.size());
        }
    }
    std::size_t numbers = 0;
    for (std::size_t k = 0; k < n; ++k) {
        w.cell[k] = std::max(metric_heading(metrics[k]).size(),
                             w.base[k] + 4 + w.now[k] + (w.change[k] ? 2 + w.change[k] : 0));
        numbers += 3 + w.cell[k];
    }
    // The pair column gets what the numbers leave; a longer name gets a line of its own.
    const std::size_t room = line_width > w.verdict + 2 + numbers + 12 ? line_width - w.verdict - 2 - numbers : 12;
    w.title = std::min(w.title, room);
    return w;
}

std::string cells_text(const Row& r, const Widths& w) {
    std::string s;
    for (std::size_t k = 0; k < r.cells.size(); ++k) {
        const Cell& c = r.cells[k];
        std::string cell = c.present ? pad_left(c.base, w.base[k]) + " -> " + pad_left(c.now, w.now[k]) +
                                           (w.change[k] ? "  " + pad_left(c.change, w.change[k]) : "")
                                     : std::string();
        s += "   " + pad_right(cell, w.cell[k]);
    }
    return s;
}

// A table line without the padding at its end.
std::string trimmed_line(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
}

// The heading, then each pair's row (its title on lines of its own when too long) and details.
std::string table_text(const std::vector<Row>& rows, const std::vector<std::string>& metrics, const Widths& w,
                       const TextStyle& style) {
    if (rows.empty()) return "";
    std::string head = pad_right("VERDICT", w.verdict) + "  " + pad_right("PAIR", w.title);
    for (std::size_t k = 0; k < metrics.size(); ++k) head += "   " + pad_right(metric_heading(metrics[k]), w.cell[k]);
    std::string out = trimmed_line(head);
    for (const auto& r : rows) {
        // Colour goes on after the padding: escape sequences take no columns.
        const std::string verdict = r.color ? paint(r.verdict, *r.color, style.color) +
                                                  std::string(w.verdict - r.verdict.size(), ' ')
                                            : pad_right(r.verdict, w.verdict);
        if (console_width(r.title) <= w.title) {
            out += trimmed_line(verdict + "  " + pad_right(r.title, w.title) + cells_text(r, w));
        } else {
            const auto title = wrap(r.title, "", "", style.width - w.verdict - 2);
            for (std::size_t i = 0; i < title.size(); ++i)
                out += trimmed_line((i == 0 ? verdict : std::string(w.verdict, ' ')) + "  " + title[i]);
            out += trimmed_line(std::string(w.verdict + 2 + w.title, ' ') + cells_text(r, w));
        }
        for (const auto& d : r.details)
            for (const auto& line : wrap(d, "    ", "      ", style.width)) out += line + "\n";
    }
    return out + "\n";
}

// The run's warnings, notes and failures, and the last line: the verdict and the counts in words.
std::string summary_text(const GateReport& report, const TextStyle& style) {
    std::string out;
    for (const auto& w : report.warnings)
        for (const auto& line : wrap("WARNING: " + console_text(w), "", "  ", style.width)) out += line + "\n";
    for (const auto& n : style.notes ? report.notes : std::vector<std::string>{})
        for (const auto& line : wrap("note: " + console_text(n), "", "  ", style.width)) out += line + "\n";
    for (const auto& failure : run_failure_lines(report))
        for (const auto& line : wrap("FAIL: " + console_text(failure), "", "  ", style.width)) out += line + "\n";
    const bool pass = passed(report);
    for (const auto& line : wrap(fmt::format("gate: {}: {}", pass ? "PASS" : "FAIL", verdict_counts(report)), "", "  ",
                                 style.width)) {
        if (line.rfind("gate: ", 0) == 0)
            out += "gate: " + paint(pass ? "PASS" : "FAIL", pass ? Color::green : Color::red, style.color) +
                   line.substr(10) + "\n";
        else
            out += line + "\n";
    }
    // A PASS with nothing compared reads as "performance is fine" to a newcomer: the last line
    // says how many pairs were compared with a baseline, and why the others were not.
    if (const auto compared = compared_line(report))
        for (const auto& line : wrap(*compared, "", "  ", style.width)) out += line + "\n";
    return out;
}

}  // namespace

namespace {

// The pairs of `report` that style folds into one line per verdict (TextStyle::show_all).
bool folded(Verdict v) { return v == Verdict::missing || v == Verdict::new_pair || v == Verdict::skipped_as_before; }

// "198 pairs missing: mlxcel/afm-4.5b, mlxcel/all-minilm-l6-v2, ... and 190 more (--show all
// lists each)" for each folded verdict, each one line of at most `width` columns.
std::string folded_lines(const std::vector<PairReport>& pairs, std::size_t width) {
    std::string out;
    for (Verdict v : {Verdict::missing, Verdict::new_pair, Verdict::skipped_as_before}) {
        std::vector<std::string> names;
        for (const auto& p : pairs)
            if (p.verdict == v) names.push_back(console_text(p.runtime + "/" + p.model));
        if (names.empty()) continue;
        const std::string head = fmt::format("{} {}: ", counted(names.size(), "pair"), to_string(v));
        std::string line = head;
        std::size_t shown = 0;
        for (const auto& name : names) {
            const std::string rest = fmt::format(" and {} more (--show all lists each)", names.size() - shown - 1);
            if (console_width(line) + name.size() + 2 + rest.size() > width && shown > 0) break;
            line += (shown ? ", " : "") + name;
            ++shown;
        }
        if (shown < names.size()) line += fmt::format(" and {} more (--show all lists each)", names.size() - shown);
        out += line + "\n";
    }
    return out;
}

}  // namespace

std::string render_text(const GateReport& report, const TextStyle& style) {
    std::vector<PairReport> listed;
    for (const auto& p : report.pairs)
        if (style.show_all || !folded(p.verdict)) listed.push_back(p);
    const auto metrics = metric_columns(listed);
    const auto rows = table_rows(listed, metrics);
    std::string out = table_text(rows, metrics, widths_of(rows, metrics, style.width), style);
    if (!style.show_all) {
        const std::string lines = folded_lines(report.pairs, style.width);
        if (!lines.empty()) out += lines + "\n";
    }
    return out + summary_text(report, style);
}

}  // namespace perfgate::gates
