#include "perfgate/core/escape.hpp"
#include "perfgate/gates/render.hpp"
#include "render_common.hpp"

namespace perfgate::gates {
namespace {

// Every value goes through xml_text (perfgate/core/escape.hpp): names and reasons come from CSVs.
std::string xml(const std::string& text) { return xml_text(text); }

}  // namespace

std::string render_junit(const GateReport& report) {
    std::size_t tests = 0, failures = 0, skipped = 0;
    std::string cases;
    for (const auto& p : report.pairs) {
        const std::string classname = fmt::format("perfgate.{}.{}.{}", p.runtime, p.host, p.harness);
        for (const auto& m : p.metrics) {
            ++tests;
            std::string detail_text = fmt::format("{}: baseline {} now {} change {}{}{}", to_string(m.verdict),
                                                  detail::number(m.baseline_value), detail::number(m.current_value),
                                                  detail::percent(m.change), m.reason.empty() ? "" : "; ", m.reason);
            for (const auto& w : p.warnings) detail_text += "; " + w;
            // time: a testcase is a comparison of recorded numbers, which takes no measurable time;
            // the measurement's own time is in CTest's report of the pair's test. Some report
            // readers reject a testcase without the attribute.
            cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"0\">\n", xml(classname),
                                 xml(detail::pair_title(p) + " " + m.metric));
            if (fails_gate(m.verdict)) {
                ++failures;
                // The body repeats the message with where the numbers came from: GitLab shows the
                // body, not the message, and some readers choke on an empty failure.
                const std::string body = fmt::format("{}\nrun: {}\nbaseline: {}", detail_text,
                                                     p.current_source.empty() ? "(in memory)" : p.current_source,
                                                     p.baseline_source.empty() ? "(none)" : p.baseline_source);
                cases += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                                     xml(to_string(m.verdict)), xml(detail_text), xml(body));
            } else if (m.verdict == Verdict::skipped || m.verdict == Verdict::missing ||
                       m.verdict == Verdict::new_pair || m.verdict == Verdict::not_comparable) {
                ++skipped;
                cases += fmt::format("      <skipped message=\"{}\"/>\n", xml(detail_text));
            } else {
                cases += fmt::format("      <system-out>{}</system-out>\n", xml(detail_text));
            }
            cases += "    </testcase>\n";
        }
    }
    if (!report.empty_run_failure.empty()) {
        // The run as a whole failed without any failing pair: one testcase carries the reason.
        ++tests;
        ++failures;
        cases += fmt::format("    <testcase classname=\"perfgate.gate\" name=\"compared anything\">\n"
                             "      <failure type=\"empty run\" message=\"{0}\">{0}</failure>\n    </testcase>\n",
                             xml(report.empty_run_failure));
    }
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<testsuites name=\"perfgate\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n", tests, failures,
                       skipped);
    out += fmt::format(
        "  <testsuite name=\"perfgate.gate\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"0\">\n", tests,
        failures, skipped);
    if (!report.warnings.empty() || !report.notes.empty()) {
        out += "    <properties>\n";
        for (const auto& w : report.warnings)
            out += fmt::format("      <property name=\"warning\" value=\"{}\"/>\n", xml(w));
        for (const auto& n : report.notes) out += fmt::format("      <property name=\"note\" value=\"{}\"/>\n", xml(n));
        out += "    </properties>\n";
    }
    out += cases;
    out += "  </testsuite>\n</testsuites>\n";
    return out;
}

}  // namespace perfgate::gates
