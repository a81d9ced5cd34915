// mlxcel-bench-decode's [Profile Results] block and mlxcel generate's "[Generated ...]" line.
// Like mlxcel's own sed extraction, the first match of each profile field wins.
#include <regex>

#include "adapter_util.hpp"
#include "perfgate/perf/adapters.hpp"

namespace perfgate::perf {
namespace {

// The first group of the first match, searched only in the lines that hold `key` (the pattern's
// literal start): the patterns are line-local, and a flooding runtime leaves megabytes of output.
std::optional<std::string> first_group(std::string_view text, std::string_view key, const std::regex& re) {
    for (const auto line : detail::lines_containing(text, key)) {
        std::cmatch m;
        if (std::regex_search(line.data(), line.data() + line.size(), m, re)) return m[1].str();
    }
    return std::nullopt;
}

}  // namespace

Expected<Measurement> parse_mlxcel_profile(std::string_view text) {
    static const std::regex prompt_re(R"(Prompt tokens:[ \t]*([0-9]+))");
    static const std::regex generated_re(R"(Generated tokens:[ \t]*([0-9]+))");
    static const std::regex prefill_ms_re(R"(Prefill:[ \t]*([0-9.]+) ms)");
    static const std::regex prefill_ts_re(R"(Prefill:.*\(([0-9.]+) tok/s\))");
    static const std::regex decode_ms_re(R"(Decode:[ \t]*([0-9.]+) ms)");
    static const std::regex decode_ts_re(R"(Decode:.*\(([0-9.]+) tok/s\))");
    static const std::regex peak_re(R"(MLX peak memory:[ \t]*([0-9.]+) GB)");

    Measurement m;
    if (auto v = first_group(text, "Prompt tokens:", prompt_re)) m.prompt_tokens = detail::to_int(*v);
    if (auto v = first_group(text, "Generated tokens:", generated_re)) m.generated_tokens = detail::to_int(*v);
    if (auto v = first_group(text, "Prefill:", prefill_ms_re)) m.prefill_ms = detail::to_double(*v);
    if (auto v = first_group(text, "Prefill:", prefill_ts_re)) m.prefill_tok_s = detail::to_double(*v);
    if (auto v = first_group(text, "Decode:", decode_ms_re)) m.decode_ms = detail::to_double(*v);
    if (auto v = first_group(text, "Decode:", decode_ts_re)) m.decode_tok_s = detail::to_double(*v);
    if (auto v = first_group(text, "MLX peak memory:", peak_re)) m.facts.peak_memory_gb = detail::to_double(*v);
    static const std::regex device_re(R"(^GPU: (.*) \([A-Za-z]*\)(?:, [0-9.]+ GiB device memory)?\.)");
    if (auto v = first_group(text, "GPU: ", device_re)) m.facts.device = *v;
    if (!m.decode_tok_s) return detail::no_numbers("mlxcel [Profile Results]", "no Decode tok/s", text);
    return detail::checked("mlxcel [Profile Results]", std::move(m), text);
}

Expected<Measurement> parse_mlxcel_generate(std::string_view text) {
    static const std::regex line_re(R"(\[Generated ([0-9]+) tokens in ([0-9.]+)s = ([0-9.]+) tok/s\])");
    Measurement m;
    bool found = false;  // the last such line wins
    for (const auto line : detail::lines_containing(text, "[Generated ")) {
        for (auto it = std::cregex_iterator(line.data(), line.data() + line.size(), line_re);
             it != std::cregex_iterator(); ++it) {
            m.generated_tokens = detail::to_int((*it)[1].str());
            if (auto s = detail::to_double((*it)[2].str())) m.decode_ms = *s * 1000.0;
            m.decode_tok_s = detail::to_double((*it)[3].str());
            found = true;
        }
    }
    if (!found || !m.decode_tok_s)
        return detail::no_numbers("mlxcel generate", "no [Generated N tokens in Xs = Y tok/s] line", text);
    return detail::checked("mlxcel generate", std::move(m), text);
}

}  // namespace perfgate::perf
