#include "perfgate/gates/render.hpp"
#include "render_common.hpp"

namespace perfgate::gates {
namespace {

// Markdown table cells: a '|' or a newline would break the row.
std::string cell(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '|') out += "\\|";
        else if (c == '\n' || c == '\r') out += ' ';
        else out += c;
    }
    return out;
}

void table(std::string& out, const std::vector<const PairReport*>& pairs) {
    out += "| Verdict | Pair | Metric | Baseline | Now | Change | Test | Reason |\n";
    out += "|---|---|---|---:|---:|---:|---|---|\n";
    for (const auto* p : pairs)
        for (const auto& m : p->metrics) {
            std::string test = m.test;
            if (m.p_value) test += fmt::format(" p={:.3g}", *m.p_value);
            std::string reason = m.reason;
            for (const auto& w : p->warnings) reason += (reason.empty() ? "" : "; ") + ("⚠ " + w);
            out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", to_string(m.verdict),
                               cell(detail::pair_title(*p)), m.metric, detail::number(m.baseline_value),
                               detail::number(m.current_value), detail::percent(m.change), cell(test), cell(reason));
        }
}

}  // namespace

std::string render_markdown(const GateReport& report) {
    std::string out = exit_code(report) == 0 ? "## perfgate: pass\n\n" : "## perfgate: FAIL\n\n";
    out += fmt::format("{} pairs: **{} failed**, **{} regressed**, {} inconclusive, {} not comparable, {} missing, "
                       "{} skipped, {} new, {} improved, {} unchanged.\n\n",
                       report.pairs.size(), report.count(Verdict::failed), report.count(Verdict::regressed),
                       report.count(Verdict::inconclusive), report.count(Verdict::not_comparable),
                       report.count(Verdict::missing), report.count(Verdict::skipped), report.count(Verdict::new_pair),
                       report.count(Verdict::improved), report.count(Verdict::unchanged));
    if (!report.empty_run_failure.empty()) out += "> **FAIL:** " + cell(report.empty_run_failure) + "\n\n";
    for (const auto& w : report.warnings) out += "> **Warning:** " + cell(w) + "\n>\n";
    if (!report.warnings.empty()) out += "\n";

    std::vector<const PairReport*> notable, quiet;
    for (const auto& p : report.pairs)
        (p.verdict == Verdict::unchanged && p.warnings.empty() ? quiet : notable).push_back(&p);
    if (!notable.empty()) table(out, notable);
    if (!quiet.empty()) {
        out += fmt::format("\n<details><summary>{} unchanged pairs</summary>\n\n", quiet.size());
        table(out, quiet);
        out += "\n</details>\n";
    }
    if (!report.notes.empty()) {
        out += "\n";
        for (const auto& n : report.notes) out += "- " + cell(n) + "\n";
    }
    return out;
}

}  // namespace perfgate::gates
