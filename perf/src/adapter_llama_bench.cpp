// llama-bench -o json. One object per test: a prompt-processing test (n_prompt > 0, n_gen == 0)
// gives prefill, a text-generation test (n_gen > 0, n_prompt == 0) gives decode. samples_ts holds
// one tok/s value per repetition, samples_ns the matching durations.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include "perfgate/core/json_input.hpp"

#include "adapter_util.hpp"
#include "perfgate/core/stats.hpp"
#include "llama_bench_record.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/perf/adapters.hpp"

namespace perfgate::perf {
namespace {

// What a field that must be a number holds instead, for the error: 'samples_ts entry "fast"'.
void note_not_a_number(std::string& note, const std::string& what, const nlohmann::json& value) {
    if (note.empty()) note = what + " " + printable_excerpt(value.dump(), 40);
}

// A sample that is not a number (a string, null) is kept as NaN and named in `note`, so the record
// is refused with what it said instead of the reading silently having fewer samples.
std::vector<double> numbers(const nlohmann::json& test, const char* key, std::string& note) {
    std::vector<double> out;
    if (auto it = test.find(key); it != test.end() && it->is_array())
        for (const auto& v : *it) {
            if (!v.is_number()) note_not_a_number(note, std::string(key) + " entry", v);
            out.push_back(v.is_number() ? v.get<double>() : std::nan(""));
        }
    return out;
}

std::string text_field(const nlohmann::json& test, const char* key) {
    if (auto it = test.find(key); it != test.end()) {
        if (it->is_string()) return it->get<std::string>();
        if (it->is_number_integer()) return std::to_string(it->get<long long>());
    }
    return {};
}

// Integers only: a float such as 1e300 is no count, and converting it would be undefined.
std::optional<std::int64_t> int_field(const nlohmann::json& test, const char* key) {
    if (auto it = test.find(key); it != test.end() && it->is_number_integer()) return it->get<std::int64_t>();
    return std::nullopt;
}

// A result field given as something else than a number (`"avg_ts": "fast"`) is named in `note`.
std::optional<double> number_field(const nlohmann::json& test, const char* key, std::string& note) {
    const auto it = test.find(key);
    if (it == test.end() || it->is_null()) return std::nullopt;
    if (it->is_number()) return it->get<double>();
    note_not_a_number(note, key, *it);
    return std::nullopt;
}

// The fields that are the test's result or its identity, not part of its configuration.
bool is_result_or_identity(const std::string& key) {
    static const char* const keys[] = {"build_commit", "build_number", "cpu_info", "gpu_info", "backends",
                                       "model_filename", "model_type", "model_size", "model_n_params", "n_prompt",
                                       "n_gen", "test_time", "avg_ns", "stddev_ns", "avg_ts", "stddev_ts",
                                       "samples_ns", "samples_ts"};
    return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

// Where llama-bench's array of test objects starts: the first '[' followed (after white space) by
// '{' or ']'. The first '[' alone could be a log line ("[INFO]") or any bracket a runtime printed
// before its result.
std::size_t json_array_start(std::string_view text) {
    for (auto at = text.find('['); at != std::string_view::npos; at = text.find('[', at + 1)) {
        const auto next = text.find_first_not_of(" \t\r\n", at + 1);
        if (next != std::string_view::npos && (text[next] == '{' || text[next] == ']')) return at;
    }
    return std::string_view::npos;
}

}  // namespace

namespace detail {

LlamaBenchTest llama_bench_test_from_json(const nlohmann::json& test, std::size_t line) {
    LlamaBenchTest t;
    t.line = line;
    t.build_commit = text_field(test, "build_commit");
    t.build_number = text_field(test, "build_number");
    t.cpu_info = text_field(test, "cpu_info");
    t.gpu_info = text_field(test, "gpu_info");
    t.backends = text_field(test, "backends");
    t.model_filename = text_field(test, "model_filename");
    t.model_type = text_field(test, "model_type");
    t.test_time = text_field(test, "test_time");
    if (auto v = int_field(test, "model_size"); v && *v > 0) t.model_size = static_cast<std::uint64_t>(*v);
    if (auto v = int_field(test, "model_n_params"); v && *v > 0) t.model_n_params = static_cast<std::uint64_t>(*v);
    t.n_prompt = int_field(test, "n_prompt").value_or(0);
    t.n_gen = int_field(test, "n_gen").value_or(0);
    t.n_batch = int_field(test, "n_batch");
    t.samples_ts = numbers(test, "samples_ts", t.not_a_number);
    t.samples_ns = numbers(test, "samples_ns", t.not_a_number);
    t.avg_ts = number_field(test, "avg_ts", t.not_a_number);
    t.avg_ns = number_field(test, "avg_ns", t.not_a_number);
    if (!t.avg_ts && !t.samples_ts.empty()) t.avg_ts = perfgate::mean(t.samples_ts);
    if (!t.avg_ns && !t.samples_ns.empty()) t.avg_ns = perfgate::mean(t.samples_ns);
    t.stddev_ts = number_field(test, "stddev_ts", t.not_a_number);
    for (const auto& [key, value] : test.items())
        if (!is_result_or_identity(key)) t.configuration.push_back(key + "=" + value.dump());
    return t;
}

}  // namespace detail

Expected<std::vector<LlamaBenchTest>> parse_llama_bench_json_tests(std::string_view text, const std::string& origin) {
    const auto begin = json_array_start(text);
    if (begin == std::string_view::npos) return make_error(origin + ":1: llama-bench JSON: no JSON array");
    // Positions are kept only to name lines: parse the array, then find each object's opening line.
    // The same reader as perfgate's own JSON files: file:line errors, a member given twice refused,
    // nesting bounded, and the line of every test object.
    const auto doc = parse_json_document(text.substr(begin), origin, line_of_offset(text, begin));
    if (!doc) return make_error(doc.error().message);
    if (!doc->value.is_array())
        return make_error(fmt::format("{}:{}: llama-bench JSON: not a JSON array", origin, line_of_offset(text, begin)));
    std::vector<LlamaBenchTest> tests;
    for (std::size_t i = 0; i < doc->value.size(); ++i)
        if (doc->value[i].is_object())
            tests.push_back(detail::llama_bench_test_from_json(doc->value[i], doc->lines.line_of("/" + std::to_string(i))));
    return tests;
}

Expected<Measurement> parse_llama_bench_json(std::string_view stdout_text) {
    if (json_array_start(stdout_text) == std::string_view::npos)
        return detail::no_numbers("llama-bench JSON", "no JSON array", stdout_text);
    auto tests = parse_llama_bench_json_tests(stdout_text, "llama-bench output");
    if (!tests) return detail::no_numbers("llama-bench JSON", tests.error().message, stdout_text);

    Measurement m;
    bool any = false;
    for (const auto& t : *tests) {
        if (!t.not_a_number.empty())
            return detail::no_numbers("llama-bench JSON", fmt::format("line {}: {} is not a number", t.line, t.not_a_number),
                                      stdout_text);
        if (t.is_prefill()) {
            m.prompt_tokens = t.n_prompt;
            m.prefill_tok_s = t.avg_ts.value_or(0.0);
            m.prefill_ms = t.avg_ns.value_or(0.0) / 1e6;
            m.prefill_samples = t.samples_ts;
        } else if (t.is_decode()) {
            m.generated_tokens = t.n_gen;
            m.decode_tok_s = t.avg_ts.value_or(0.0);
            m.decode_ms = t.avg_ns.value_or(0.0) / 1e6;
            m.decode_samples = t.samples_ts;
            if (t.stddev_ts) m.decode_stddev = t.stddev_ts;
        } else {
            continue;  // mixed pp+tg tests (-pg) are not a headline number
        }
        any = true;
        m.facts.commit = t.build_commit;
        m.facts.version = t.build_number;
        m.facts.backends = t.backends;
        m.facts.device = t.gpu_info;
        m.facts.cpu = t.cpu_info;
        m.facts.model_type = t.model_type;
        if (t.model_size) m.facts.model_size = t.model_size;
        if (t.model_n_params) m.facts.model_n_params = t.model_n_params;
    }
    if (!any) return detail::no_numbers("llama-bench JSON", "no pp or tg test in the array", stdout_text);
    return detail::checked("llama-bench JSON", std::move(m), stdout_text);
}

}  // namespace perfgate::perf
