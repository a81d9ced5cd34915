// Runtime-output adapters: every input goes to each of them (llama-bench JSON, mlxcel profile,
// mlxcel generate, mlx_lm.generate, mlx_lm.benchmark, Catch2 XML, a user command with the regexes
// of a shipped suite), so the recorded outputs seed all of them. An adapter that says "ok" returns a
// headline number, and no rate, duration, count or sample it returns is negative, NaN or infinite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_check.hpp"
#include "perfgate/perf/adapters.hpp"

using perfgate::fuzz::check;
using perfgate::perf::Measurement;

namespace {
void sane(const std::optional<double>& v, const char* what) {
    if (v) check(std::isfinite(*v) && *v >= 0, what, std::to_string(*v));
}

void check_measurement(const Measurement& m, bool decode_required) {
    if (decode_required) check(m.decode_tok_s.has_value(), "an ok result has decode tok/s");
    check(m.decode_tok_s || m.prefill_tok_s || m.facts.peak_memory_gb, "an ok result has some number");
    sane(m.decode_tok_s, "decode tok/s is finite and >= 0");
    sane(m.prefill_tok_s, "prefill tok/s is finite and >= 0");
    sane(m.decode_ms, "decode ms is finite and >= 0");
    sane(m.prefill_ms, "prefill ms is finite and >= 0");
    sane(m.decode_stddev, "decode stddev is finite and >= 0");
    sane(m.facts.peak_memory_gb, "peak memory is finite and >= 0");
    for (double s : m.decode_samples) sane(s, "decode samples are finite and >= 0");
    for (double s : m.prefill_samples) sane(s, "prefill samples are finite and >= 0");
    if (m.prompt_tokens) check(*m.prompt_tokens >= 0, "prompt tokens >= 0");
    if (m.generated_tokens) check(*m.generated_tokens >= 0, "generated tokens >= 0");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view out(reinterpret_cast<const char*>(data), size);
    perfgate::perf::CommandPatterns p;
    p.decode_tok_s = R"(tg128 \|\s+([0-9.]+) ±)";  // the patterns of perf/suites/rocm-replay.json
    p.prefill_tok_s = R"(pp512 \|\s+([0-9.]+) ±)";
    p.prompt_tokens = R"(prompt tokens: ([0-9.]+))";
    p.generated_tokens = R"(generated tokens: ([0-9.]+))";
    const std::pair<perfgate::Expected<Measurement>, bool> results[] = {
        // {result, whether an ok result must carry decode tok/s}
        {perfgate::perf::parse_llama_bench_json(out), false},
        {perfgate::perf::parse_mlxcel_profile(out), true},
        {perfgate::perf::parse_mlxcel_generate(out), true},
        {perfgate::perf::parse_mlx_lm_generate(out), false},
        {perfgate::perf::parse_mlx_lm_benchmark(out), true},
        {perfgate::perf::parse_catch2_xml(out, ""), true},
        {perfgate::perf::parse_catch2_xml(out, "decode"), true},
        {perfgate::perf::parse_command_output(out, p), true},
    };
    for (const auto& [m, decode_required] : results) {
        if (!m) check(!m.error().message.empty(), "an error says something");
        else check_measurement(*m, decode_required);
    }
    return 0;
}
