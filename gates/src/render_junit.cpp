// The gate's report as JUnit test cases: one per pair and metric, and one per reason a run failed
// as a whole; written by the one JUnit writer (perfgate/gates/junit.hpp).
#include "perfgate/gates/junit.hpp"
#include "perfgate/gates/render.hpp"
#include "render_common.hpp"

namespace perfgate::gates {
namespace {

// Verdicts that neither pass nor fail a pair: it was not compared.
bool not_compared(Verdict v) {
    return v == Verdict::skipped || v == Verdict::skipped_as_before || v == Verdict::missing ||
           v == Verdict::new_pair || v == Verdict::new_machine || v == Verdict::not_comparable;
}

// One case: a failure, skipped, or the numbers as its output.
JunitCase metric_case(const PairReport& p, const MetricCheck& m) {
    std::string detail_text = fmt::format("{}: baseline {} now {} change {}{}{}", to_string(m.verdict),
                                          detail::number(m.metric, m.baseline_value),
                                          detail::number(m.metric, m.current_value), detail::percent(m.change),
                                          m.reason.empty() ? "" : "; ", m.reason);
    for (const auto& w : p.warnings) detail_text += "; " + w;
    JunitCase c;
    c.classname = fmt::format("perfgate.{}.{}.{}", p.runtime, p.host, p.harness);
    c.name = detail::pair_title(p) + " " + m.metric;
    c.message = detail_text;
    if (fails_gate(m.verdict)) {
        c.outcome = JunitCase::Outcome::failed;
        c.type = to_string(m.verdict);
        // The body repeats the message with where the numbers came from.
        c.body = fmt::format("{}\nrun: {}\nbaseline: {}", detail_text,
                             p.current_source.empty() ? "(in memory)" : p.current_source,
                             p.baseline_source.empty() ? "(none)" : p.baseline_source);
    } else if (not_compared(m.verdict)) {
        c.outcome = JunitCase::Outcome::skipped;
    }
    return c;
}

// The run as a whole failed without any failing pair: one case carries each reason.
void add_run_failure_cases(JunitDocument& doc, const GateReport& report) {
    for (const auto& reason : run_failure_lines(report)) {
        const bool empty = reason == report.empty_run_failure;
        JunitCase c;
        c.classname = "perfgate.gate";
        c.name = empty ? "compared anything" : "run at the base ref";
        c.outcome = JunitCase::Outcome::failed;
        c.type = empty ? "empty run" : "run failure";
        c.message = reason;
        doc.cases.push_back(std::move(c));
    }
}

}  // namespace

std::string render_junit(const GateReport& report) {
    JunitDocument doc;
    doc.suite = "perfgate.gate";
    for (const auto& w : report.warnings) doc.properties.emplace_back("warning", w);
    for (const auto& n : report.notes) doc.properties.emplace_back("note", n);
    for (const auto& p : report.pairs)
        for (const auto& m : p.metrics) doc.cases.push_back(metric_case(p, m));
    add_run_failure_cases(doc, report);
    return write_junit(doc);
}

}  // namespace perfgate::gates
