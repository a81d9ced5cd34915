#pragma once
// The environment table: every fact the rows allow, each with where it came from; a fact no row
// records says "not recorded".
#include <string>
#include <vector>

#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

inline constexpr const char* not_recorded = "not recorded";

struct EnvField {
    std::string label;
    std::string value;   // not_recorded when nothing says
    std::string source;  // column, hardware string, operator note ...
};

std::vector<EnvField> describe_environment(const ReportData& data, const std::string& operator_note);

}  // namespace perfgate::report
