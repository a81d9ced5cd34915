#include "perfgate/runner/compare_files.hpp"

#include <boost/algorithm/string/replace.hpp>
#include <fmt/format.h>

#include <filesystem>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/scratch_folder.hpp"
#include "perfgate/perf/result_files.hpp"
#include "perfgate/runner/results_as_csv.hpp"

namespace perfgate::runner {
using perf::read_result_file;
using perf::ResultFileFormat;

Expected<gates::GateReport> compare_result_files(const std::string& baseline, const std::string& current,
                                                 gates::GateOptions options, const std::string& host) {
    auto a = read_result_file(baseline, host);
    if (!a) return a.error();
    auto b = read_result_file(current, host);
    if (!b) return b.error();
    if (a->rows.empty()) return make_error(baseline + ": no result rows");
    if (b->rows.empty()) return make_error(current + ": no result rows");

    // A private folder: the gate's explicit baseline is a file, so converted llama-bench rows are
    // written there in perfgate's schema; it is also the (otherwise empty) history folder, so no
    // unrelated CSV of the working directory is read.
    auto scratch = ScratchFolder::make("perfgate-compare");
    if (!scratch) return scratch.error();
    options.benchmarks_dir = scratch->path().string();
    options.baseline_ref.reset();  // two files on disk: nothing is read from git
    if (a->format == ResultFileFormat::results_csv) {
        options.baseline = baseline;
    } else {
        auto written = write_rows_csv(scratch->path().string(), a->rows);
        if (!written) return written.error();
        options.baseline = *written;
    }
    Expected<gates::GateReport> report = make_error("");
    if (b->format == ResultFileFormat::results_csv) {
        options.results = {current};
        report = gates::run_gate(options);
    } else {
        report = gates::gate_rows(b->rows, options);
    }
    // The scratch file is gone when the report or the error is read: name A, where the rows came from.
    auto name_a = [&](std::string& text) {
        if (a->format != ResultFileFormat::results_csv) boost::algorithm::replace_all(text, *options.baseline, baseline);
    };
    if (!report) {
        std::string message = report.error().message;
        name_a(message);
        return make_error(message);
    }
    if (a->format != ResultFileFormat::results_csv) gates::for_each_text(*report, name_a);
    report->notes.push_back(fmt::format("compare: baseline {} ({}), run {} ({})", baseline, to_string(a->format),
                                        current, to_string(b->format)));
    return report;
}

}  // namespace perfgate::runner
