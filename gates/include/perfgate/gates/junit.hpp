#pragma once
// The one JUnit XML writer: the gate's report and perfgate ab's both become a list of test cases
// here, so the two files read the same in a CI's test view (counts, failure bodies, escaping).
#include <string>
#include <utility>
#include <vector>

namespace perfgate::gates {

struct JunitCase {
    enum class Outcome { passed, failed, skipped };
    std::string classname;
    std::string name;
    Outcome outcome = Outcome::passed;
    std::string type;     // failed: the failure's type attribute ("regressed")
    std::string message;  // failed, skipped: the one-line reason; passed: the system-out text
    // failed: the failure's body (GitLab shows the body, not the message); empty: the message.
    std::string body;
};

struct JunitDocument {
    std::string suite;                                       // the testsuite's name
    std::vector<std::pair<std::string, std::string>> properties;  // name, value
    std::vector<JunitCase> cases;
};

// The document as JUnit XML. Values pass through xml_characters (perfgate/core/escape.hpp): names
// and reasons come from CSVs a pull request controls.
std::string write_junit(const JunitDocument& document);

}  // namespace perfgate::gates
