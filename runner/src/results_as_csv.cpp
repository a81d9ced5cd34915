#include "perfgate/runner/results_as_csv.hpp"

#include <boost/algorithm/string/replace.hpp>
#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/host_tag_rule.hpp"
#include "perfgate/perf/result_files.hpp"

namespace perfgate::runner {

Expected<std::string> write_rows_csv(const std::string& folder, const std::vector<ResultRow>& rows,
                                     const std::string& suffix) {
    const auto& first = rows.front();
    const auto name = suffix.empty() ? fmt::format("{}_{}_{}.csv", first.backend, first.host, first.date)
                                     : fmt::format("{}_{}_{}_{}.csv", first.backend, first.host, first.date, suffix);
    const auto path = std::filesystem::path(folder) / name;
    std::ofstream out(path, std::ios::binary);
    out << perfgate_header_line() << '\n';
    for (const auto& r : rows) out << format_result_row(r);
    if (!out) return make_error(path.string() + ": cannot write the converted rows");
    return path.string();
}

Expected<ResultsAsCsv> ResultsAsCsv::make(const std::vector<std::string>& paths, const std::string& host) {
    ResultsAsCsv out;
    for (const auto& path : paths) {
        auto format = perf::detect_result_file_format(path);
        if (!format) return format.error();
        if (*format == perf::ResultFileFormat::results_csv) {
            out.csvs_.push_back(path);
            continue;
        }
        if (host.empty())
            return make_error(fmt::format("{}: {} output names no host: give --host with the host tag "
                                          "its history is filed under",
                                          path, perf::to_string(*format)));
        // The tag becomes part of a file name (and the gate's series): held to the host-tag rule.
        if (auto bad = host_tag_problem(host, "--host")) return make_error(*bad);
        auto read = perf::read_result_file(path, host);
        if (!read) return read.error();
        if (read->rows.empty()) return make_error(path + ": no result rows");
        if (!out.scratch_) {
            auto scratch = ScratchFolder::make("perfgate-results");
            if (!scratch) return scratch.error();
            out.scratch_.emplace(std::move(*scratch));
        }
        // Named after the original (a page lists it as "cpu_h_2026-12-01_1-run-b.json.csv"), numbered
        // so that two files of one name stay apart.
        std::string stem = std::to_string(out.converted_.size() + 1) + "-";
        for (char c : std::filesystem::path(path).filename().string())
            stem += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '-';
        auto written = write_rows_csv(out.scratch_->path().string(), read->rows, stem);
        if (!written) return written.error();
        out.csvs_.push_back(*written);
        out.converted_.emplace_back(*written, path);
        out.formats_.emplace_back(perf::to_string(*format));
    }
    return out;
}

void ResultsAsCsv::name_sources(std::string& text) const {
    for (const auto& [copy, original] : converted_) boost::algorithm::replace_all(text, copy, original);
}

void ResultsAsCsv::name_sources(gates::GateReport& report) const {
    if (converted_.empty()) return;
    gates::for_each_text(report, [this](std::string& text) { name_sources(text); });
    for (auto& note : conversion_notes()) report.notes.push_back(std::move(note));
}

std::vector<std::string> ResultsAsCsv::conversion_notes() const {
    std::vector<std::string> notes;
    for (std::size_t i = 0; i < converted_.size(); ++i)
        notes.push_back(fmt::format("{} read as {}, converted to perfgate's rows", converted_[i].second, formats_[i]));
    return notes;
}

}  // namespace perfgate::runner
