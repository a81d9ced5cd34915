#include "perfgate/runner/gate_files.hpp"

#include <fmt/format.h>

#include <tuple>

#include "perfgate/core/project_paths.hpp"
#include "perfgate/gates/statistics.hpp"
#include "perfgate/runner/results_as_csv.hpp"
#include "perfgate/runner/suite_at_ref.hpp"

namespace perfgate::runner {

Expected<GateFolders> resolve_gate_folders(const std::string& benchmarks_dir, const std::string& thresholds_dir,
                                           const std::filesystem::path& start_dir) {
    std::optional<std::filesystem::path> root;
    if (benchmarks_dir.empty() || thresholds_dir.empty()) {
        root = find_gate_root(start_dir);
        if (!root)
            return make_error("no benchmarks/ or thresholds/ folder in the working directory or any folder above it; "
                              "pass --benchmarks-dir and --thresholds-dir");
    }
    GateFolders folders;
    for (auto [given, out, name] : {std::tuple{&benchmarks_dir, &folders.benchmarks_dir, "benchmarks"},
                                    std::tuple{&thresholds_dir, &folders.thresholds_dir, "thresholds"}}) {
        if (given->empty()) {
            *out = (*root / name).string();
            continue;
        }
        std::error_code ec;
        if (!std::filesystem::is_directory(*given, ec))
            return make_error(fmt::format("--{}-dir {}: no such folder", name, *given));
        *out = *given;
    }
    return folders;
}

Expected<gates::GateReport> gate_files(const GateFilesRequest& request) {
    gates::GateOptions o = request.options;
    auto folders = resolve_gate_folders(request.benchmarks_dir, request.thresholds_dir, request.start_dir);
    if (!folders) return folders.error();
    o.benchmarks_dir = folders->benchmarks_dir;
    o.thresholds_dir = folders->thresholds_dir;
    o.empty_run = request.allow_empty ? gates::EmptyRun::allow : gates::EmptyRun::fail;
    if (!request.baseline.empty()) o.baseline = request.baseline;
    if (request.baseline_ref) {
        // An empty value (a failed merge-base step in a script) must not silently turn the
        // pull-request protection off.
        if (request.baseline_ref->find_first_not_of(" \t\r\n") == std::string::npos)
            return make_error("--baseline-ref is empty: the base ref to read baselines and thresholds at is unknown "
                              "(did the merge-base step fail?); leave the option out to gate against the working tree");
        o.baseline_ref = request.baseline_ref;
    }
    if (!request.suite.empty()) {
        if (!o.baseline_ref)
            return make_error("--suite needs --baseline-ref (it names the suite whose version at the ref may excuse a "
                              "missing or skipped pair)");
        auto now = perf::load_suite(request.suite);
        if (!now) return now.error();
        if (auto st = read_suite_at_ref(*now, *o.baseline_ref, o); !st) return st.error();
    }
    if (!request.catalog.empty()) o.catalog = request.catalog;
    auto test = gates::stat_test_from_string(request.test);
    if (!test) return make_error("unknown --test " + request.test);
    o.test = *test;
    // llama-bench's own output is gated as its rows: one verdict whatever format the readings are in.
    auto results = ResultsAsCsv::make(o.results, o.host);
    if (!results) return results.error();
    o.results = results->csv_paths();
    auto report = gates::run_gate(o);
    if (!report) {
        std::string message = report.error().message;
        results->name_sources(message);
        return make_error(message);
    }
    results->name_sources(*report);
    return report;
}

}  // namespace perfgate::runner
