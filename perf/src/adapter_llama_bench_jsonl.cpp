// llama-bench -o jsonl: one JSON object per line, the same fields as -o json.
#include <fmt/format.h>

#include "perfgate/core/json_input.hpp"

#include "llama_bench_record.hpp"
#include "perfgate/core/text.hpp"

namespace perfgate::perf {

Expected<std::vector<LlamaBenchTest>> parse_llama_bench_jsonl(std::string_view text, const std::string& origin) {
    std::vector<LlamaBenchTest> tests;
    for (const auto& [line, content] : nonblank_lines(text)) {
        const auto object = parse_json_document(content, origin, line);
        if (!object) return make_error(object.error().message);
        if (!object->value.is_object())
            return make_error(fmt::format("{}:{}: llama-bench JSONL: the line is not one JSON object: {}", origin, line,
                                          printable_excerpt(content, 80)));
        tests.push_back(detail::llama_bench_test_from_json(object->value, line));
    }
    if (tests.empty()) return make_error(origin + ":1: llama-bench JSONL: no test records");
    return tests;
}

}  // namespace perfgate::perf
