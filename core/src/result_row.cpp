#include "perfgate/core/result_row.hpp"

#include <regex>

namespace perfgate {

std::string StatusToken::reason() const {
    if (ok()) return {};
    auto colon = text.find(':');
    auto rest = text.substr(colon + 1);
    return rest.substr(0, rest.find('='));
}

std::string StatusToken::value() const {
    auto eq = text.find('=');
    return eq == std::string::npos ? std::string{} : text.substr(eq + 1);
}

bool StatusToken::valid(const std::string& text) {
    if (text == "ok") return true;
    // mlxcel's tokens: SKIP:<reason>[=<value>] / FAIL:<reason>, reasons are lowercase words.
    static const std::regex token(R"((SKIP|FAIL):[a-z][a-z0-9_]*(=[^,\r\n]*)?)");
    return std::regex_match(text, token);
}

const char* to_string(CsvGeneration g) {
    switch (g) {
        case CsvGeneration::A: return "A (14 columns, mlx_version)";
        case CsvGeneration::A_prime: return "A' (14 columns, mlxcel_version)";
        case CsvGeneration::B: return "B (15 columns)";
        case CsvGeneration::B_prime: return "B' (16 columns)";
        case CsvGeneration::C: return "C (17 columns)";
        case CsvGeneration::C_rocm: return "C-ROCm (19 columns)";
        case CsvGeneration::P: return "P (pylm, 14 columns)";
        case CsvGeneration::Perfgate: return "perfgate";
    }
    return "unknown";
}

static std::vector<double> samples_or_single(const std::vector<double>& samples,
                                             const std::optional<double>& single) {
    if (!samples.empty()) return samples;
    if (single) return {*single};
    return {};
}

std::vector<double> ResultRow::decode_samples() const {
    return samples_or_single(decode_tok_s_samples, decode_tok_s);
}

std::vector<double> ResultRow::prefill_samples() const {
    return samples_or_single(prefill_tok_s_samples, prefill_tok_s);
}

std::vector<double> ResultRow::peak_memory_samples() const {
    return samples_or_single(peak_memory_bytes_samples, peak_memory_bytes);
}

std::vector<double> ResultRow::peak_device_memory_samples() const {
    return samples_or_single(peak_device_memory_bytes_samples, peak_device_memory_bytes);
}

std::vector<double> ResultRow::prefill_instructions_samples() const {
    return samples_or_single(prefill_instructions_per_token_samples, prefill_instructions_per_token);
}

std::vector<double> ResultRow::decode_instructions_samples() const {
    return samples_or_single(decode_instructions_per_token_samples, decode_instructions_per_token);
}

std::vector<double> ResultRow::prompt_gen_samples() const {
    return samples_or_single(prompt_gen_tok_s_samples, prompt_gen_tok_s);
}

std::vector<double> ResultRow::serving_output_samples() const { return samples_or_single(serving_output_tok_s_samples, serving_output_tok_s); }

std::vector<double> ResultRow::ttft_p50_samples() const { return samples_or_single(ttft_p50_ms_samples, ttft_p50_ms); }

std::vector<double> ResultRow::ttft_p99_samples() const { return samples_or_single(ttft_p99_ms_samples, ttft_p99_ms); }

std::vector<double> ResultRow::tpot_p50_samples() const { return samples_or_single(tpot_p50_ms_samples, tpot_p50_ms); }

std::vector<double> ResultRow::tpot_p99_samples() const { return samples_or_single(tpot_p99_ms_samples, tpot_p99_ms); }

std::vector<double> ResultRow::itl_p50_samples() const { return samples_or_single(itl_p50_ms_samples, itl_p50_ms); }

std::vector<double> ResultRow::itl_p99_samples() const { return samples_or_single(itl_p99_ms_samples, itl_p99_ms); }

std::vector<double> ResultRow::serving_request_samples() const { return samples_or_single(serving_request_s_samples, serving_request_s); }

}  // namespace perfgate
