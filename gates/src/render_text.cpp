#include <algorithm>

#include "perfgate/gates/render.hpp"
#include "render_common.hpp"

namespace perfgate::gates {

std::string render_text(const GateReport& report) {
    struct Line {
        std::string verdict, pair, metric, base, now, change, test, note;
    };
    std::vector<Line> lines;
    lines.push_back({"VERDICT", "PAIR", "METRIC", "BASELINE", "NOW", "CHANGE", "TEST", "REASON / WARNINGS"});
    for (const auto& p : report.pairs) {
        for (std::size_t i = 0; i < p.metrics.size(); ++i) {
            const auto& m = p.metrics[i];
            std::string test = m.test;
            if (m.p_value) test += fmt::format(" p={:.3g}", *m.p_value);
            if (!test.empty() && !detail::samples_note(m).empty()) test += " " + detail::samples_note(m);
            std::string note = m.reason;
            if (i == 0 && p.reruns > 0) note += fmt::format("{}{} rerun(s)", note.empty() ? "" : "; ", p.reruns);
            if (i == 0)
                for (const auto& w : p.warnings) note += (note.empty() ? "" : "; ") + w;
            lines.push_back({to_string(m.verdict), i == 0 ? detail::pair_title(p) : "", m.metric,
                             detail::number(m.baseline_value), detail::number(m.current_value),
                             detail::percent(m.change), test, note});
        }
    }
    std::size_t w[7] = {};
    for (const auto& l : lines) {
        const std::string* cols[] = {&l.verdict, &l.pair, &l.metric, &l.base, &l.now, &l.change, &l.test};
        for (int i = 0; i < 7; ++i) w[i] = std::max(w[i], cols[i]->size());
    }
    std::string out;
    for (const auto& l : lines)
        out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {:>{}}  {:>{}}  {:>{}}  {:<{}}  {}\n", l.verdict, w[0], l.pair, w[1],
                           l.metric, w[2], l.base, w[3], l.now, w[4], l.change, w[5], l.test, w[6], l.note);

    out += fmt::format("\n{} pairs: {} failed, {} regressed, {} inconclusive, {} not comparable, {} missing, {} skipped, "
                       "{} new, {} improved, {} unchanged\n",
                       report.pairs.size(), report.count(Verdict::failed), report.count(Verdict::regressed),
                       report.count(Verdict::inconclusive), report.count(Verdict::not_comparable),
                       report.count(Verdict::missing), report.count(Verdict::skipped), report.count(Verdict::new_pair),
                       report.count(Verdict::improved), report.count(Verdict::unchanged));
    for (const auto& warning : report.warnings) out += "WARNING: " + warning + "\n";
    for (const auto& n : report.notes) out += "note: " + n + "\n";
    if (!report.empty_run_failure.empty()) out += "FAIL: " + report.empty_run_failure + "\n";
    out += exit_code(report) == 0 ? "gate: PASS\n" : "gate: FAIL\n";
    return out;
}

}  // namespace perfgate::gates
