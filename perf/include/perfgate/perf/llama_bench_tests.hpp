#pragma once
// llama-bench's result records, whatever format it printed them in (-o json, jsonl, csv, sql):
// one record per test. A prompt-processing test (n_prompt > 0, n_gen == 0) measures prefill, a
// text-generation test (n_gen > 0, n_prompt == 0) decode; a -pg test (both) a prompt followed by
// generation, its own workload.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::perf {

struct LlamaBenchTest {
    std::string build_commit, build_number, cpu_info, gpu_info, backends;
    std::string model_filename, model_type, test_time;
    std::optional<std::uint64_t> model_size, model_n_params;
    std::int64_t n_prompt = 0, n_gen = 0;
    std::optional<std::int64_t> n_batch;
    std::optional<double> avg_ns, avg_ts, stddev_ts;
    std::vector<double> samples_ns, samples_ts;  // -o csv and -o sql print no samples
    // The first result field that must be a number and is not, as written: 'samples_ts entry
    // "fast"'; empty when there is none. Such a test is refused with it (a sample kept as NaN
    // was reported as "nan", hiding what the file said).
    std::string not_a_number;
    // Every other parameter of the test as "key=value" in output order (threads, layers, depth,
    // cache types, ...): two tests of one configuration have the same text.
    std::vector<std::string> configuration;
    std::size_t line = 0;  // where the record starts in the output (1-based)

    bool is_prefill() const { return n_prompt > 0 && n_gen == 0; }
    bool is_decode() const { return n_gen > 0 && n_prompt == 0; }
    bool is_prompt_gen() const { return n_prompt > 0 && n_gen > 0; }
};

// One parser per format. Errors name `origin` and the line.
Expected<std::vector<LlamaBenchTest>> parse_llama_bench_json_tests(std::string_view text, const std::string& origin);
Expected<std::vector<LlamaBenchTest>> parse_llama_bench_jsonl(std::string_view text, const std::string& origin);
Expected<std::vector<LlamaBenchTest>> parse_llama_bench_csv(std::string_view text, const std::string& origin);
Expected<std::vector<LlamaBenchTest>> parse_llama_bench_sql(std::string_view text, const std::string& origin);

// Whether `text` (white space trimmed) starts as llama-bench's -o sql does: CREATE TABLE or
// INSERT INTO.
bool starts_as_llama_bench_sql(std::string_view text);

}  // namespace perfgate::perf
