#pragma once
// The environment table: every fact the rows allow, each with where it came from; a fact no row
// records says "not recorded".
#include <string>
#include <vector>

#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

inline constexpr const char* not_recorded = "not recorded";

struct EnvField {
    std::string label;   // markdown (a runtime's name in it is escaped)
    std::string value;   // raw data; not_recorded when nothing says
    std::string source;  // markdown: column in a code span, hardware string, operator note ...
};

// Rows that cannot apply to the page's backend are left out (a CPU page has no GPU target or
// driver); "not recorded" means a value could have been recorded and was not.

std::vector<EnvField> describe_environment(const ReportData& data, const std::string& operator_note);

}  // namespace perfgate::report
