// JUnit XML through Boost.PropertyTree's writer, which escapes & < > " '. Every value first goes
// through xml_characters (perfgate/core/escape.hpp): names and reasons come from CSVs, and the
// writer would pass on control characters that XML 1.0 cannot carry.
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <sstream>

#include "perfgate/core/escape.hpp"
#include "perfgate/gates/render.hpp"
#include "render_common.hpp"

namespace perfgate::gates {
namespace {

namespace pt = boost::property_tree;

pt::ptree& add_element(pt::ptree& parent, const char* name) { return parent.add_child(name, pt::ptree()); }

// Line breaks and tabs stay as they are: in an attribute value a reader sees them as spaces (XML's
// attribute-value normalisation), in element text as written. The writer has no character references.
void set_attribute(pt::ptree& element, const char* name, const std::string& value) {
    element.add(std::string("<xmlattr>.") + name, xml_characters(value));
}

void set_text(pt::ptree& element, const std::string& text) { element.put_value(xml_characters(text)); }

struct Counts {
    std::size_t tests = 0, failures = 0, skipped = 0;
};

// Verdicts that neither pass nor fail a pair: it was not compared.
bool not_compared(Verdict v) {
    return v == Verdict::skipped || v == Verdict::skipped_as_before || v == Verdict::missing ||
           v == Verdict::new_pair || v == Verdict::new_machine || v == Verdict::not_comparable;
}

void add_properties(pt::ptree& suite, const GateReport& report) {
    if (report.warnings.empty() && report.notes.empty()) return;
    auto& properties = add_element(suite, "properties");
    const auto add_property = [&](const char* name, const std::string& value) {
        auto& property = add_element(properties, "property");
        set_attribute(property, "name", name);
        set_attribute(property, "value", value);
    };
    for (const auto& w : report.warnings) add_property("warning", w);
    for (const auto& n : report.notes) add_property("note", n);
}

// One testcase: a failure, skipped, or the numbers as its output.
void add_metric_testcase(pt::ptree& suite, const PairReport& p, const MetricCheck& m, Counts& counts) {
    ++counts.tests;
    std::string detail_text = fmt::format("{}: baseline {} now {} change {}{}{}", to_string(m.verdict),
                                          detail::number(m.metric, m.baseline_value),
                                          detail::number(m.metric, m.current_value), detail::percent(m.change),
                                          m.reason.empty() ? "" : "; ", m.reason);
    for (const auto& w : p.warnings) detail_text += "; " + w;
    auto& testcase = add_element(suite, "testcase");
    set_attribute(testcase, "classname", fmt::format("perfgate.{}.{}.{}", p.runtime, p.host, p.harness));
    set_attribute(testcase, "name", detail::pair_title(p) + " " + m.metric);
    // time: a testcase is a comparison of recorded numbers, which takes no measurable time; the
    // measurement's own time is in CTest's report of the pair's test. Some report readers reject a
    // testcase without the attribute.
    set_attribute(testcase, "time", "0");
    if (fails_gate(m.verdict)) {
        ++counts.failures;
        // The body repeats the message with where the numbers came from: GitLab shows the body,
        // not the message, and some readers choke on an empty failure.
        auto& failure = add_element(testcase, "failure");
        set_attribute(failure, "type", to_string(m.verdict));
        set_attribute(failure, "message", detail_text);
        set_text(failure, fmt::format("{}\nrun: {}\nbaseline: {}", detail_text,
                                      p.current_source.empty() ? "(in memory)" : p.current_source,
                                      p.baseline_source.empty() ? "(none)" : p.baseline_source));
    } else if (not_compared(m.verdict)) {
        ++counts.skipped;
        set_attribute(add_element(testcase, "skipped"), "message", detail_text);
    } else {
        set_text(add_element(testcase, "system-out"), detail_text);
    }
}

// The run as a whole failed without any failing pair: one testcase carries each reason.
void add_run_failure_testcases(pt::ptree& suite, const GateReport& report, Counts& counts) {
    for (const auto& reason : run_failure_lines(report)) {
        ++counts.tests;
        ++counts.failures;
        const bool empty = reason == report.empty_run_failure;
        auto& testcase = add_element(suite, "testcase");
        set_attribute(testcase, "classname", "perfgate.gate");
        set_attribute(testcase, "name", empty ? "compared anything" : "run at the base ref");
        auto& failure = add_element(testcase, "failure");
        set_attribute(failure, "type", empty ? "empty run" : "run failure");
        set_attribute(failure, "message", reason);
        set_text(failure, reason);
    }
}

// The counts are known only at the end; the writer puts attributes in the start tag wherever they
// were added.
void set_counts(pt::ptree& suites, pt::ptree& suite, const Counts& counts) {
    set_attribute(suites, "name", "perfgate");
    set_attribute(suites, "tests", std::to_string(counts.tests));
    set_attribute(suites, "failures", std::to_string(counts.failures));
    set_attribute(suites, "skipped", std::to_string(counts.skipped));
    set_attribute(suite, "name", "perfgate.gate");
    set_attribute(suite, "tests", std::to_string(counts.tests));
    set_attribute(suite, "failures", std::to_string(counts.failures));
    set_attribute(suite, "errors", "0");
    set_attribute(suite, "skipped", std::to_string(counts.skipped));
    set_attribute(suite, "time", "0");
}

}  // namespace

std::string render_junit(const GateReport& report) {
    pt::ptree doc;
    auto& suites = add_element(doc, "testsuites");
    auto& suite = add_element(suites, "testsuite");
    add_properties(suite, report);
    Counts counts;
    for (const auto& p : report.pairs)
        for (const auto& m : p.metrics) add_metric_testcase(suite, p, m, counts);
    add_run_failure_testcases(suite, report, counts);
    set_counts(suites, suite, counts);
    std::ostringstream out;
    pt::write_xml(out, doc, pt::xml_writer_make_settings<std::string>(' ', 2, "UTF-8"));
    return out.str();
}

}  // namespace perfgate::gates
