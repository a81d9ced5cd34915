#include "perfgate/report/reproduce_command.hpp"

#include <fmt/format.h>

namespace perfgate::report {

std::string shell_word(const std::string& arg) {
    if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@") ==
                            std::string::npos)
        return arg;
    std::string out = "'";
    for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string reproduce_command(const ReportOptions& o) {
    std::string line = "perfgate report";
    for (const auto& r : o.results) line += " --results " + shell_word(r);
    line += " --output " + shell_word(o.output);
    if (!o.history_dir.empty()) line += " --history-dir " + shell_word(o.history_dir);
    if (o.thresholds_dir != "thresholds") line += " --thresholds-dir " + shell_word(o.thresholds_dir);
    if (!o.note.empty()) line += " --note " + shell_word(o.note);
    if (o.compare) line += " --compare " + shell_word(*o.compare);
    if (o.min_ratio) line += fmt::format(" --min-ratio {:g}", *o.min_ratio);
    if (!o.charts.enabled) line += " --no-charts";
    return line;
}

}  // namespace perfgate::report
