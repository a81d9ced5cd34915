// llama-bench -o json. One object per test: a prompt-processing test (n_prompt > 0, n_gen == 0)
// gives prefill, a text-generation test (n_gen > 0, n_prompt == 0) gives decode. samples_ts holds
// one tok/s value per repetition, samples_ns the matching durations.
#include <nlohmann/json.hpp>

#include "adapter_util.hpp"
#include "perfgate/perf/adapters.hpp"

namespace perfgate::perf {
namespace {

std::vector<double> numbers(const nlohmann::json& test, const char* key) {
    std::vector<double> out;
    if (auto it = test.find(key); it != test.end() && it->is_array())
        for (const auto& v : *it)
            if (v.is_number()) out.push_back(v.get<double>());
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
std::int64_t int_field(const nlohmann::json& test, const char* key) {
    if (auto it = test.find(key); it != test.end() && it->is_number_integer()) return it->get<std::int64_t>();
    return 0;
}

// A number, or the fallback when the key is absent or holds another type (test.value() would throw).
double number_field(const nlohmann::json& test, const char* key, double fallback) {
    if (auto it = test.find(key); it != test.end() && it->is_number()) return it->get<double>();
    return fallback;
}

}  // namespace

Expected<Measurement> parse_llama_bench_json(std::string_view stdout_text) {
    const auto begin = stdout_text.find('[');
    if (begin == std::string_view::npos)
        return detail::no_numbers("llama-bench JSON", "no JSON array", stdout_text);
    const auto doc = nlohmann::json::parse(stdout_text.substr(begin), nullptr, false);
    if (doc.is_discarded() || !doc.is_array())
        return detail::no_numbers("llama-bench JSON", "output is not a JSON array", stdout_text);

    Measurement m;
    bool any = false;
    for (const auto& test : doc) {
        if (!test.is_object()) continue;
        const auto n_prompt = int_field(test, "n_prompt");
        const auto n_gen = int_field(test, "n_gen");
        const auto ts = numbers(test, "samples_ts");
        const auto ns = numbers(test, "samples_ns");
        const double avg_ts = number_field(test, "avg_ts", ts.empty() ? 0.0 : detail::mean(ts));
        const double avg_ns = number_field(test, "avg_ns", ns.empty() ? 0.0 : detail::mean(ns));
        if (n_prompt > 0 && n_gen == 0) {
            m.prompt_tokens = n_prompt;
            m.prefill_tok_s = avg_ts;
            m.prefill_ms = avg_ns / 1e6;
            m.prefill_samples = ts;
            any = true;
        } else if (n_gen > 0 && n_prompt == 0) {
            m.generated_tokens = n_gen;
            m.decode_tok_s = avg_ts;
            m.decode_ms = avg_ns / 1e6;
            m.decode_samples = ts;
            if (auto it = test.find("stddev_ts"); it != test.end() && it->is_number())
                m.decode_stddev = it->get<double>();
            any = true;
        } else {
            continue;  // mixed pp+tg tests (-pg) are not a headline number
        }
        m.facts.commit = text_field(test, "build_commit");
        m.facts.version = text_field(test, "build_number");
        m.facts.backends = text_field(test, "backends");
        m.facts.device = text_field(test, "gpu_info");
        m.facts.cpu = text_field(test, "cpu_info");
        m.facts.model_type = text_field(test, "model_type");
        if (auto v = int_field(test, "model_size"); v > 0) m.facts.model_size = static_cast<std::uint64_t>(v);
        if (auto v = int_field(test, "model_n_params"); v > 0)
            m.facts.model_n_params = static_cast<std::uint64_t>(v);
    }
    if (!any) return detail::no_numbers("llama-bench JSON", "no pp or tg test in the array", stdout_text);
    return detail::checked("llama-bench JSON", std::move(m), stdout_text);
}

}  // namespace perfgate::perf
