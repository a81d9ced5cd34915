// perfgate as a C++ library: the results file this project's perf tests wrote is read with
// perfgate::core and judged against itself as an explicit baseline with perfgate::gates, the way a
// project could gate from its own tooling. Judged against itself, no pair may change beyond the noise.
//
//   gate_in_process <results dir> <thresholds dir>   judges the newest *.csv of the folder (by name);
//                                                    exit 0: all unchanged or within noise, 1: not, 2: bad input
#include <cstdio>
#include <filesystem>
#include <string>

#include "perfgate/core/csv.hpp"
#include "perfgate/gates/gate.hpp"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s <results dir> <thresholds dir>\n", argv[0]);
        return 2;
    }
    // <backend>_<host>_<date>.csv: the newest date sorts last.
    std::string results;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(argv[1], ec))
        if (entry.path().extension() == ".csv" && entry.path().string() > results) results = entry.path().string();
    if (results.empty()) {
        std::fprintf(stderr, "%s: no results CSV\n", argv[1]);
        return 2;
    }
    auto file = perfgate::read_results_csv(results);
    if (!file) {
        std::fprintf(stderr, "%s\n", file.error().message.c_str());
        return 2;
    }
    std::printf("%zu rows in %s\n", file->rows.size(), results.c_str());

    perfgate::gates::GateOptions options;
    options.results = {results};
    options.baseline = results;
    options.thresholds_dir = argv[2];
    auto report = perfgate::gates::run_gate(options);
    if (!report) {
        std::fprintf(stderr, "%s\n", report.error().message.c_str());
        return 2;
    }
    // A run judged against itself: every pair must come out judged with no change beyond the noise,
    // "unchanged" where the data bound the change within the floor, else "within noise" (one run of
    // history, as here, cannot bound it).
    const std::size_t quiet = report->count(perfgate::gates::Verdict::unchanged) +
                              report->count(perfgate::gates::Verdict::within_noise);
    for (const auto& pair : report->pairs)
        std::printf("%s %s: %s\n", pair.runtime.c_str(), pair.model.c_str(), perfgate::gates::to_string(pair.verdict));
    std::printf("%zu of %zu pairs unchanged or within noise against themselves\n", quiet, report->pairs.size());
    return !report->pairs.empty() && quiet == report->pairs.size() ? 0 : 1;
}
