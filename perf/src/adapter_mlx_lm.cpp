// mlx_lm.generate's statistics lines and mlx_lm.benchmark's Trial lines.
#include <regex>

#include "adapter_util.hpp"
#include "perfgate/core/stats.hpp"
#include "perfgate/perf/adapters.hpp"

namespace perfgate::perf {

Expected<Measurement> parse_mlx_lm_generate(std::string_view text_view) {
    const std::string text(text_view);
    // First block wins; every line is optional (PR excerpts paste only some of them).
    static const std::regex prompt_re(R"((?:^|\n)Prompt: ([0-9]+) tokens, ([0-9.]+) tokens-per-sec)");
    static const std::regex gen_re(R"((?:^|\n)Generation: ([0-9]+) tokens, ([0-9.]+) tokens-per-sec)");
    static const std::regex peak_re(R"((?:^|\n)Peak memory: ([0-9.]+) GB)");
    Measurement m;
    std::smatch match;
    if (std::regex_search(text, match, prompt_re)) {
        m.prompt_tokens = detail::to_int(match[1].str());
        m.prefill_tok_s = detail::to_double(match[2].str());
        if (m.prompt_tokens && m.prefill_tok_s && *m.prefill_tok_s > 0)
            m.prefill_ms = static_cast<double>(*m.prompt_tokens) / *m.prefill_tok_s * 1000.0;
    }
    if (std::regex_search(text, match, gen_re)) {
        m.generated_tokens = detail::to_int(match[1].str());
        m.decode_tok_s = detail::to_double(match[2].str());
        if (m.generated_tokens && m.decode_tok_s && *m.decode_tok_s > 0)
            m.decode_ms = static_cast<double>(*m.generated_tokens) / *m.decode_tok_s * 1000.0;
    }
    if (std::regex_search(text, match, peak_re)) m.facts.peak_memory_gb = detail::to_double(match[1].str());
    if (!m.prefill_tok_s && !m.decode_tok_s && !m.facts.peak_memory_gb)
        return detail::no_numbers("mlx_lm.generate", "no Prompt/Generation/Peak memory line", text);
    return detail::checked("mlx_lm.generate", std::move(m), text);
}

Expected<Measurement> parse_mlx_lm_benchmark(std::string_view text_view) {
    const std::string text(text_view);
    static const std::regex shape_re(R"(prompt_tokens=([0-9]+) and generation_tokens=([0-9]+))");
    static const std::regex trial_re(
        R"((?:^|\n)Trial [0-9]+:\s+prompt_tps=([0-9.]+), generation_tps=([0-9.]+), peak_memory=([0-9.]+))");
    Measurement m;
    std::smatch match;
    if (std::regex_search(text, match, shape_re)) {
        m.prompt_tokens = detail::to_int(match[1].str());
        m.generated_tokens = detail::to_int(match[2].str());
    }
    double peak = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), trial_re); it != std::sregex_iterator(); ++it) {
        auto p = detail::to_double((*it)[1].str());
        auto g = detail::to_double((*it)[2].str());
        auto mem = detail::to_double((*it)[3].str());
        if (!p || !g) continue;
        m.prefill_samples.push_back(*p);
        m.decode_samples.push_back(*g);
        if (mem && *mem > peak) peak = *mem;
    }
    if (m.decode_samples.empty())
        return detail::no_numbers("mlx_lm.benchmark", "no Trial line", text);
    m.prefill_tok_s = perfgate::mean(m.prefill_samples);
    m.decode_tok_s = perfgate::mean(m.decode_samples);
    if (m.prompt_tokens && *m.prefill_tok_s > 0)
        m.prefill_ms = static_cast<double>(*m.prompt_tokens) / *m.prefill_tok_s * 1000.0;
    if (m.generated_tokens && *m.decode_tok_s > 0)
        m.decode_ms = static_cast<double>(*m.generated_tokens) / *m.decode_tok_s * 1000.0;
    if (peak > 0) m.facts.peak_memory_gb = peak;
    return detail::checked("mlx_lm.benchmark", std::move(m), text);
}

}  // namespace perfgate::perf
