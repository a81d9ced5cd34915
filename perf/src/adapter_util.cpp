#include "adapter_util.hpp"

#include <charconv>
#include <cmath>
#include <algorithm>
#include <numeric>

#include "perfgate/core/text.hpp"

namespace perfgate::perf::detail {

std::optional<double> to_double(std::string_view text) {
    text = perfgate::trim(text);
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    if (!std::isfinite(value)) return std::nullopt;  // "inf" and "nan" are no runtime's reading
    return value;
}

std::optional<long long> to_int(std::string_view text) {
    text = perfgate::trim(text);
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::optional<std::int64_t> to_count(double value) {
    if (!(value >= 0 && value < 9.2e18)) return std::nullopt;  // also false for NaN
    return static_cast<std::int64_t>(value);
}

Expected<Measurement> checked(std::string_view format, Measurement m, std::string_view output) {
    const auto bad = [](const std::optional<double>& v) { return v && !(std::isfinite(*v) && *v >= 0); };
    const auto bad_samples = [](const std::vector<double>& v) {
        for (double x : v)
            if (!(std::isfinite(x) && x >= 0)) return true;
        return false;
    };
    const char* what = nullptr;
    if (bad(m.decode_tok_s) || bad(m.prefill_tok_s)) what = "a negative or non-finite tok/s";
    else if (bad(m.decode_ms) || bad(m.prefill_ms)) what = "a negative or non-finite duration";
    else if (bad(m.decode_stddev)) what = "a negative or non-finite standard deviation";
    else if (bad_samples(m.decode_samples) || bad_samples(m.prefill_samples)) what = "a negative or non-finite sample";
    else if (bad(m.facts.peak_memory_gb)) what = "a negative or non-finite peak memory";
    else if ((m.prompt_tokens && *m.prompt_tokens < 0) || (m.generated_tokens && *m.generated_tokens < 0))
        what = "a negative token count";
    if (what) return no_numbers(format, what, output);
    return m;
}

Error no_numbers(std::string_view format, std::string_view what, std::string_view output) {
    return make_error(std::string(format) + ": " + std::string(what) + "; output begins: " +
                      perfgate::printable_excerpt(output, 300));
}

std::vector<std::string_view> lines_containing(std::string_view text, std::string_view key) {
    std::vector<std::string_view> lines;
    for (auto at = text.find(key); at != std::string_view::npos;) {
        const auto newline_before = text.rfind('\n', at);
        const auto begin = newline_before == std::string_view::npos ? 0 : newline_before + 1;
        const auto end = std::min(text.find('\n', at), text.size());
        lines.push_back(text.substr(begin, end - begin));
        at = end == text.size() ? std::string_view::npos : text.find(key, end);
    }
    return lines;
}

}  // namespace perfgate::perf::detail
