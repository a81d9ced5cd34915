#pragma once
// Benchmark CSV file names: <series>_<host>[_<tag>...]_<YYYY-MM-DD>[_<suffix>][_single_<model>].csv
// where <series> is a backend (metal, cuda, rocm, ...) or a runtime (pylm, llama-bench, ...).
// Parsed in general: any host tag, any series, hand-made tags before the date, "_vlm" anywhere.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate::gates {

struct BenchmarkFileName {
    std::string series;               // field 0: backend or runtime, as written
    std::string host;                 // field 1: short host tag (never contains '_')
    std::string harness = "text";     // "vlm" when a "vlm" segment is present
    std::string date;                 // YYYY-MM-DD
    std::vector<std::string> tags;    // segments between host and date other than "vlm" (longprompt, ...)
    std::string suffix;               // segments after the date and before "_single_", joined by '_'
    std::string single_model;         // model basename of a "_single_<model>" file, else empty
};

// Accepts a path or a basename; nullopt when the name does not follow the convention (fewer than
// three fields, no YYYY-MM-DD field after the host, or not ending in ".csv").
std::optional<BenchmarkFileName> parse_benchmark_file_name(std::string_view path);

// An error naming the file when a field of its name is shaped like a date (NNNN-NN-NN) but names
// no calendar day (2026-02-30): parse_benchmark_file_name would skip such a field, and the file
// would silently be no baseline or a results file without a date. nullopt otherwise.
std::optional<std::string> impossible_date_in_name(std::string_view path);

// True for the backends perfgate knows (perfgate/core/backend.hpp); a series that is a backend was written by
// mlxcel's bench_decode.sh (runtime "mlxcel"), any other series names the runtime itself.
bool is_backend_name(std::string_view series);
std::string runtime_of_series(std::string_view series);

}  // namespace perfgate::gates
