#include <fmt/ranges.h>

#include "perfgate/core/escape.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/gates/render.hpp"
#include "render_common.hpp"

namespace perfgate::gates {
namespace {

// Every piece of data in a cell or line goes through markdown_text: a model name from a pull
// request's CSV must not close the <details> block, inject HTML or split the table. The metric
// names and the test column are perfgate's own words.
std::string md(const std::string& text) { return markdown_text(text); }

void table(std::string& out, const std::vector<const PairReport*>& pairs) {
    out += "| Verdict | Pair | Metric | Baseline | Now | Change | Test | Reason |\n";
    out += "|---|---|---|---:|---:|---:|---|---|\n";
    for (const auto* p : pairs)
        for (const auto& m : p->metrics) {
            std::string test = m.test;
            if (m.p_value) test += fmt::format(" p={:.3g}", *m.p_value);
            std::vector<std::string> reason;
            if (!m.reason.empty()) reason.push_back(md(m.reason));
            for (const auto& w : p->warnings) reason.push_back("⚠ " + md(w));
            out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", to_string(m.verdict),
                               md(detail::pair_title(*p)), m.metric, detail::number(m.metric, m.baseline_value),
                               detail::number(m.metric, m.current_value), detail::percent(m.change), test, fmt::join(reason, "; "));
        }
}

}  // namespace

std::string render_markdown(const GateReport& report) {
    std::string out = passed(report) ? "## perfgate: pass\n\n" : "## perfgate: FAIL\n\n";
    out += verdict_counts(report) + ".\n\n";
    for (const auto& failure : run_failure_lines(report)) out += "> **FAIL:** " + md(failure) + "\n\n";
    for (const auto& w : report.warnings) out += "> **Warning:** " + md(w) + "\n>\n";
    if (!report.warnings.empty()) out += "\n";

    std::vector<const PairReport*> notable, quiet;
    for (const auto& p : report.pairs)
        (p.verdict == Verdict::unchanged && p.warnings.empty() ? quiet : notable).push_back(&p);
    if (!notable.empty()) table(out, notable);
    if (!quiet.empty()) {
        out += fmt::format("\n<details><summary>{}</summary>\n\n", counted(quiet.size(), "unchanged pair"));
        table(out, quiet);
        out += "\n</details>\n";
    }
    if (!report.notes.empty()) {
        out += "\n";
        for (const auto& n : report.notes) out += "- " + md(n) + "\n";
    }
    return out;
}

}  // namespace perfgate::gates
