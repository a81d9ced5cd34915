#pragma once
// How `perfgate gate` and `perfgate compare` hand a gate report to the user: rendered in the chosen
// format to stdout or a file, the verdict line still on the console when it goes to a file (CI
// logs), and the process exit code. One place, so the two commands cannot drift apart.
#include <fmt/format.h>

#include <fstream>
#include <string>

#include "color_option.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/escape.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/gates/render.hpp"
#include "perfgate/gates/report.hpp"

namespace perfgate::cli {

inline int emit_gate_report(const gates::GateReport& report, gates::ReportFormat format, const std::string& output,
                            const char* command, const std::string& color, const std::string& show = "all") {
    gates::TextStyle style;
    style.show_all = show == "all";
    style.color = output.empty() && color_on(color, 1);  // a file never gets escape sequences
    const std::string text = gates::render(report, format, style);
    if (output.empty()) {
        fmt::print("{}", text);
    } else {
        std::ofstream out(output, std::ios::binary);
        out << text;
        if (!out) {
            fmt::print(stderr, "{}: cannot write {}\n", command, output);
            return exit_code::usage;
        }
        fmt::print(stderr, "{}: {}: {}; report in {}\n", command, gates::passed(report) ? "PASS" : "FAIL",
                   gates::verdict_counts(report), output);
    }
    for (const auto& failure : gates::run_failure_lines(report))
        fmt::print(stderr, "{}: FAIL: {}\n", command, console_text(failure));
    return exit_of_gate(gates::passed(report));
}

}  // namespace perfgate::cli
