// JUnit XML through Boost.PropertyTree's writer, which escapes & < > " '. Every value first goes
// through xml_characters (perfgate/core/escape.hpp): the writer would pass on control characters
// that XML 1.0 cannot carry.
#include "perfgate/gates/junit.hpp"

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <sstream>

#include "perfgate/core/escape.hpp"

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

void add_case(pt::ptree& suite, const JunitCase& c) {
    auto& testcase = add_element(suite, "testcase");
    set_attribute(testcase, "classname", c.classname);
    set_attribute(testcase, "name", c.name);
    // A test case is a judgement of recorded numbers, which takes no measurable time (the
    // measurement's own time is in CTest's report); some readers reject a testcase without it.
    set_attribute(testcase, "time", "0");
    switch (c.outcome) {
        case JunitCase::Outcome::failed: {
            // Some readers choke on an empty failure: the body is at least the message.
            auto& failure = add_element(testcase, "failure");
            set_attribute(failure, "type", c.type);
            set_attribute(failure, "message", c.message);
            set_text(failure, c.body.empty() ? c.message : c.body);
            break;
        }
        case JunitCase::Outcome::skipped: set_attribute(add_element(testcase, "skipped"), "message", c.message); break;
        case JunitCase::Outcome::passed: set_text(add_element(testcase, "system-out"), c.message); break;
    }
}

}  // namespace

std::string write_junit(const JunitDocument& document) {
    std::size_t failures = 0, skipped = 0;
    for (const auto& c : document.cases) {
        failures += c.outcome == JunitCase::Outcome::failed;
        skipped += c.outcome == JunitCase::Outcome::skipped;
    }
    const std::string tests = std::to_string(document.cases.size());
    pt::ptree doc;
    auto& suites = add_element(doc, "testsuites");
    // Attributes land in the start tag in the order they are added, before any child.
    set_attribute(suites, "name", "perfgate");
    set_attribute(suites, "tests", tests);
    set_attribute(suites, "failures", std::to_string(failures));
    set_attribute(suites, "skipped", std::to_string(skipped));
    auto& suite = add_element(suites, "testsuite");
    set_attribute(suite, "name", document.suite);
    set_attribute(suite, "tests", tests);
    set_attribute(suite, "failures", std::to_string(failures));
    set_attribute(suite, "errors", "0");
    set_attribute(suite, "skipped", std::to_string(skipped));
    set_attribute(suite, "time", "0");
    if (!document.properties.empty()) {
        auto& properties = add_element(suite, "properties");
        for (const auto& [name, value] : document.properties) {
            auto& property = add_element(properties, "property");
            set_attribute(property, "name", name);
            set_attribute(property, "value", value);
        }
    }
    for (const auto& c : document.cases) add_case(suite, c);
    std::ostringstream out;
    pt::write_xml(out, doc, pt::xml_writer_make_settings<std::string>(' ', 2, "UTF-8"));
    return out.str();
}

}  // namespace perfgate::gates
