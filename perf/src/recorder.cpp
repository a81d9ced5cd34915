#include "perfgate/perf/recorder.hpp"

#include <fmt/format.h>
#include <regex>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/host_tag_rule.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::perf {

Expected<std::filesystem::path> results_file(const std::filesystem::path& dir, const std::string& backend,
                                             const std::string& host_tag, const std::string& date,
                                             const std::string& suffix) {
    static const std::regex backend_re("[a-z]+");
    static const std::regex date_re("[0-9]{4}-[0-9]{2}-[0-9]{2}");
    if (!std::regex_match(backend, backend_re)) return make_error("results file: bad backend \"" + backend + "\"");
    if (auto bad = host_tag_problem(host_tag, "the results file name")) return make_error("results file: " + *bad);
    if (!std::regex_match(date, date_re)) return make_error("results file: date \"" + date + "\" is not YYYY-MM-DD");
    // A suffix may hold '_' (mlxcel writes "_single_<model>") but never a path separator or "..".
    if (!suffix.empty()) {
        for (char c : suffix)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_')
                return make_error("results file: suffix \"" + suffix + "\" may only hold letters, digits, '-', '.', '_'");
        if (suffix.find("..") != std::string::npos || suffix.front() == '.')
            return make_error("results file: suffix \"" + suffix + "\" would escape the results directory");
    }
    return dir / fmt::format("{}_{}_{}{}{}.csv", backend, host_tag, date, suffix.empty() ? "" : "_", suffix);
}

Status record_row(const std::filesystem::path& file, const ResultRow& row) {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) return make_error(file.parent_path().string() + ": " + ec.message());
    return append_results_locked(file.string(), {row});
}

void print_ctest_measurements(std::ostream& out, const ResultRow& row) {
    auto put = [&](const char* name, const std::optional<double>& v) {
        if (v) out << fmt::format("<CTestMeasurement type=\"numeric/double\" name=\"{}\">{:.2f}</CTestMeasurement>\n", name, *v);
    };
    put("decode_tok_s", row.decode_tok_s);
    put("prefill_tok_s", row.prefill_tok_s);
    put("decode_ms", row.decode_ms);
    put("prefill_ms", row.prefill_ms);
    out << fmt::format("<CTestMeasurement type=\"text/string\" name=\"status\">{}</CTestMeasurement>\n", row.status.text);
}

}  // namespace perfgate::perf
