#pragma once
// The `perfgate report` command line that makes a page, for its "How to reproduce" section.
#include <string>

#include "perfgate/report/make_report.hpp"

namespace perfgate::report {

// `arg` as one shell word: unchanged when it holds only characters no shell treats specially,
// else in single quotes (an embedded quote written as '\''), so the line can be pasted back.
std::string shell_word(const std::string& arg);

// "perfgate report --results ... --output ..." with every option that differs from its default
// (charts off: --no-charts), each value a shell word.
std::string reproduce_command(const ReportOptions& options);

}  // namespace perfgate::report
