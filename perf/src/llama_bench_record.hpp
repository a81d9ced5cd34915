#pragma once
// One llama-bench test record from the JSON object llama-bench printed (json and jsonl) or that
// the CSV reader built from a row; shared so the three formats read the same fields the same way.
#include <nlohmann/json.hpp>

#include "perfgate/perf/llama_bench_tests.hpp"

namespace perfgate::perf::detail {

LlamaBenchTest llama_bench_test_from_json(const nlohmann::json& object, std::size_t line);

}  // namespace perfgate::perf::detail
