#pragma once
// Any result file perfgate reads, as rows of the results model: perfgate's CSVs and every mlxcel
// generation (core's reader), llama-bench's own -o json, -o jsonl, -o csv and -o sql output, and
// the result files of vLLM's and SGLang's serving benchmarks (serving_result_files.hpp).
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"
#include "perfgate/perf/llama_bench_tests.hpp"

namespace perfgate::perf {

enum class ResultFileFormat {
    results_csv,
    llama_bench_json,
    llama_bench_jsonl,
    llama_bench_csv,
    llama_bench_sql,
    vllm_bench_serve,
    sglang_bench_serving
};
const char* to_string(ResultFileFormat format);

struct ReadResultFile {
    ResultFileFormat format = ResultFileFormat::results_csv;
    std::vector<ResultRow> rows;
};

// Which format `path` holds: its first line (llama-bench's CSV header starts with build_commit, its
// SQL with CREATE TABLE or INSERT INTO), else its first character ('[': a JSON array, '{': JSON
// lines: vLLM's or SGLang's serving results when their keys say so, else llama-bench's), else a
// results CSV.
Expected<ResultFileFormat> detect_result_file_format(const std::string& path);

// Reads the file in its format. llama-bench rows get runtime "llama-bench", the backend from
// "backends", the model from the model file's name, and `host` (llama-bench does not name one);
// vLLM's and SGLang's runs get runtime "vllm" and "sglang" (serving_result_files.hpp).
Expected<ReadResultFile> read_result_file(const std::string& path, const std::string& host);

// llama-bench's tests as rows: one row per model and configuration, its k-th prompt-processing
// test as prefill and its k-th text-generation test as decode (llama-bench runs -p and -n lists
// in order). When one file holds several configurations of a model, the parameters that differ
// are appended to the model name ("m [n_threads=4]"), so each configuration is its own pair (a depth,
// -d, is such a parameter: "m [n_depth=512]"). Each -pg test is a row of its own, named with its
// workload ("m [pp32+tg8]"), whose metric is prompt_gen_tok_s.
Expected<std::vector<ResultRow>> llama_bench_rows(const std::vector<LlamaBenchTest>& tests, const std::string& origin,
                                                  const std::string& host);

}  // namespace perfgate::perf
