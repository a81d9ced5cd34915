// A user-defined command: the suite gives one regex per metric, each with one capture group.
#include <regex>
#include <tuple>

#include "adapter_util.hpp"
#include "perfgate/core/stats.hpp"
#include "perfgate/perf/adapters.hpp"

namespace perfgate::perf {
namespace {

Expected<std::regex> compiled(const std::string& pattern, const char* what) {
    std::regex re;
    try {
        re = std::regex(pattern);
    } catch (const std::regex_error& e) {
        return make_error(std::string("command adapter: bad regex for ") + what + ": " + e.what());
    }
    if (re.mark_count() < 1)
        return make_error(std::string("command adapter: the regex for ") + what + " needs one capture group");
    return re;
}

Expected<std::vector<double>> all_matches(const std::string& text, const std::string& pattern, const char* metric) {
    std::vector<double> out;
    if (pattern.empty()) return out;
    auto re = compiled(pattern, metric);
    if (!re) return re.error();
    for (auto it = std::sregex_iterator(text.begin(), text.end(), *re); it != std::sregex_iterator(); ++it)
        if (auto v = detail::to_double((*it)[1].str())) out.push_back(*v);
    return out;
}

}  // namespace

Expected<Measurement> parse_command_output(std::string_view text_view, const CommandPatterns& patterns) {
    const std::string text(text_view);
    if (patterns.decode_tok_s.empty()) return make_error("command adapter: no decode_tok_s regex given");
    Measurement m;
    auto decode = all_matches(text, patterns.decode_tok_s, "decode_tok_s");
    if (!decode) return decode.error();
    auto prefill = all_matches(text, patterns.prefill_tok_s, "prefill_tok_s");
    if (!prefill) return prefill.error();
    auto prompt = all_matches(text, patterns.prompt_tokens, "prompt_tokens");
    if (!prompt) return prompt.error();
    auto generated = all_matches(text, patterns.generated_tokens, "generated_tokens");
    if (!generated) return generated.error();
    if (decode->empty()) return detail::no_numbers("command", "the decode_tok_s regex matched nothing", text);
    m.decode_samples = *decode;
    m.decode_tok_s = perfgate::mean(*decode);
    if (!prefill->empty()) {
        m.prefill_samples = *prefill;
        m.prefill_tok_s = perfgate::mean(*prefill);
    }
    if (!prompt->empty() && !(m.prompt_tokens = detail::to_count(prompt->front())))
        return detail::no_numbers("command", "the prompt_tokens regex matched no token count", text);
    if (!generated->empty() && !(m.generated_tokens = detail::to_count(generated->front())))
        return detail::no_numbers("command", "the generated_tokens regex matched no token count", text);
    for (auto [pattern, fact, what] : {std::tuple{&patterns.version, &m.facts.version, "version"},
                                       std::tuple{&patterns.commit, &m.facts.commit, "commit"}}) {
        if (pattern->empty()) continue;
        auto re = compiled(*pattern, what);
        if (!re) return re.error();
        if (std::smatch match; std::regex_search(text, match, *re)) *fact = match[1].str();
    }
    if (m.decode_samples.size() == 1) m.decode_samples.clear();  // a single reading is not a sample set
    if (m.prefill_samples.size() == 1) m.prefill_samples.clear();
    return detail::checked("command", std::move(m), text);
}

}  // namespace perfgate::perf
