#pragma once
// Result files of the serving benchmarks teams already run, as rows of the results model, so that
// their runs can be gated and compared like perfgate's own serving pairs (docs/serving.md, "Result
// files of vLLM and SGLang"):
// - vLLM's `vllm bench serve --save-result`: one JSON object (JSON lines with --append-result);
// - SGLang's `bench_serving --output-file`: one JSON object per run, appended line by line.
// Each object is one run: its median and p99 TTFT, TPOT and ITL, and its output and request
// throughput, at its concurrency (the row's `batch`).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"
#include "perfgate/perf/result_files.hpp"

namespace perfgate::perf {

// Which of the two a JSON text is (ResultFileFormat::vllm_bench_serve or sglang_bench_serving),
// from its start: keys that only one of them writes near the top of every object (SGLang's
// random_range_ratio or total_output_tokens_retokenized, vLLM's burstiness); nullopt for neither.
std::optional<ResultFileFormat> detect_serving_result_format(std::string_view start);

// The runs of the file as rows: runtime "vllm" or "sglang", `host` as given (neither names one).
// Errors name the file and line: a line that is not one JSON object, a run without
// output_throughput, a figure that is not a finite number from 0.
// `format` is one of the two.
Expected<std::vector<ResultRow>> serving_result_rows(ResultFileFormat format, std::string_view text,
                                                     const std::string& origin, const std::string& host);

}  // namespace perfgate::perf
