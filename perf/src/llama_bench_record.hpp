#pragma once
// One llama-bench test record from the JSON object llama-bench printed (json and jsonl) or that
// the CSV and SQL readers built from a row; shared so the formats read the same fields the same way.
#include <nlohmann/json.hpp>

#include "perfgate/perf/llama_bench_tests.hpp"

namespace perfgate::perf::detail {

LlamaBenchTest llama_bench_test_from_json(const nlohmann::json& object, std::size_t line);

// A field that -o csv and -o sql print as text, typed as -o json would print it: an integer or a
// floating-point number where the whole text is one, except the identity fields (a commit such as
// "1234567" stays text). One rule, so a csv and an sql file of one run read as the same record.
nlohmann::json llama_bench_value(const std::string& key, const std::string& text);

}  // namespace perfgate::perf::detail
