#include "columns.hpp"

#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <type_traits>

#include "perfgate/core/measure_rules.hpp"

namespace perfgate::detail {

const std::vector<Column>& schema_columns() {
    using R = ResultRow;
    static const std::vector<Column> columns = {
        {"model", &R::model},
        {"model_path", &R::model_path},
        {"prompt_tokens", &R::prompt_tokens},
        {"generated_tokens", &R::generated_tokens},
        {"prefill_ms", &R::prefill_ms},
        {"prefill_tok_s", &R::prefill_tok_s},
        {"decode_ms", &R::decode_ms},
        {"decode_tok_s", &R::decode_tok_s},
        {"date", &R::date},
        {"hardware", &R::hardware},
        {"mlxcel_version", &R::runtime_version},
        {"build_type", &R::build_type},
        {"max_tokens", &R::max_tokens},
        {"prompt", &R::prompt},
        {"prompt_target_len", &R::prompt_target_len},
        {"mlxcel_commit", &R::runtime_commit},
        {"mlx_commit", &R::upstream_commit},
        {"mlx_rocm_overlay_commit", &R::overlay_commit},
        {"hip_version", &R::hip_version},
        {"runtime", &R::runtime},
        {"backend", &R::backend},
        {"host", &R::host},
        {"device", &R::device},
        {"device_arch", &R::device_arch},
        {"device_memory_bytes", &R::device_memory_bytes},
        {"device_memory_source", &R::device_memory_source},
        {"uma", &R::uma},
        {"host_memory_bytes", &R::host_memory_bytes},
        {"repetitions", &R::repetitions},
        {"warmup", &R::warmup},
        {"batch", &R::batch},
        {"prefill_tok_s_samples", &R::prefill_tok_s_samples},
        {"decode_tok_s_samples", &R::decode_tok_s_samples},
        {"rocm_version", &R::rocm_version},
        {"cuda_version", &R::cuda_version},
        {"driver_version", &R::driver_version},
        {"os", &R::os},
        {"kernel", &R::kernel},
        {"cpu_model", &R::cpu_model},
        {"compiler", &R::compiler},
        {"flags", &R::flags},
        {"command", &R::command},
        {"cooldown_s", Precise{&R::cooldown_s}},
        {"harness", &R::harness},
        {"format", &R::format},
        {"model_bytes", &R::model_bytes},
        {"synthetic", &R::synthetic},
        {"contention", &R::contention},
        {"run_id", &R::run_id},
        {"arm", &R::arm},
        // Added after arm, before the last two, as arm was: tools that read `status` as the last
        // field (this project's ctest self-test, hand-written scripts) keep working.
        {"machine_id", &R::machine_id},
        {"machine_fingerprint", &R::machine_fingerprint},
        {"peak_memory_bytes", Precise{&R::peak_memory_bytes}},
        {"peak_memory_bytes_samples", &R::peak_memory_bytes_samples},
        {"peak_device_memory_bytes", Precise{&R::peak_device_memory_bytes}},
        {"peak_device_memory_bytes_samples", &R::peak_device_memory_bytes_samples},
        {"prefill_instructions_per_token", Precise{&R::prefill_instructions_per_token}},
        {"prefill_instructions_per_token_samples", &R::prefill_instructions_per_token_samples},
        {"decode_instructions_per_token", Precise{&R::decode_instructions_per_token}},
        {"decode_instructions_per_token_samples", &R::decode_instructions_per_token_samples},
        {"prompt_gen_tok_s", Precise{&R::prompt_gen_tok_s}},
        {"prompt_gen_tok_s_samples", &R::prompt_gen_tok_s_samples},
        {"active_model_bytes", &R::active_model_bytes},
        {"serving_output_tok_s", Precise{&R::serving_output_tok_s}},
        {"serving_output_tok_s_samples", &R::serving_output_tok_s_samples},
        {"ttft_p50_ms", Precise{&R::ttft_p50_ms}},
        {"ttft_p50_ms_samples", &R::ttft_p50_ms_samples},
        {"ttft_p99_ms", Precise{&R::ttft_p99_ms}},
        {"ttft_p99_ms_samples", &R::ttft_p99_ms_samples},
        {"tpot_p50_ms", Precise{&R::tpot_p50_ms}},
        {"tpot_p50_ms_samples", &R::tpot_p50_ms_samples},
        {"tpot_p99_ms", Precise{&R::tpot_p99_ms}},
        {"tpot_p99_ms_samples", &R::tpot_p99_ms_samples},
        {"itl_p50_ms", Precise{&R::itl_p50_ms}},
        {"itl_p50_ms_samples", &R::itl_p50_ms_samples},
        {"itl_p99_ms", Precise{&R::itl_p99_ms}},
        {"itl_p99_ms_samples", &R::itl_p99_ms_samples},
        {"serving_request_s", Precise{&R::serving_request_s}},
        {"serving_request_s_samples", &R::serving_request_s_samples},
        {"timestamp", &R::timestamp},
        {"status", StatusField{}},
    };
    return columns;
}

const Column* find_column(std::string_view name) {
    // Older generations: the 11th column was "mlx_version" (A, B) or "baseline_version" (pylm);
    // B' had an 8-character "commit" column that means the runtime's commit.
    if (name == "mlx_version" || name == "baseline_version") name = "mlxcel_version";
    if (name == "commit") name = "mlxcel_commit";
    for (const auto& c : schema_columns())
        if (c.name == name) return &c;
    return nullptr;
}

namespace {

std::string format_samples(const std::vector<double>& v) { return fmt::format("{}", fmt::join(v, ";")); }

template <class T>
std::optional<std::string> parse_number(std::string_view text, std::optional<T>& out) {
    if (text.empty()) {
        out.reset();
        return std::nullopt;
    }
    T value{};
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size())
        return fmt::format("not a number: '{}'", text.substr(0, 40));
    // Every floating-point column is a measurement (rate, duration, sample, cooldown).
    if constexpr (std::is_floating_point_v<T>)
        if (auto why = unreadable_measure(value)) return fmt::format("{}: '{}'", *why, text.substr(0, 40));
    out = value;
    return std::nullopt;
}

struct Formatter {
    const ResultRow& row;
    std::string operator()(StringField f) const { return row.*f; }
    std::string operator()(IntField f) const { return (row.*f) ? fmt::format("{}", *(row.*f)) : ""; }
    std::string operator()(UintField f) const { return (row.*f) ? fmt::format("{}", *(row.*f)) : ""; }
    std::string operator()(DoubleField f) const { return (row.*f) ? fmt::format("{:.2f}", *(row.*f)) : ""; }
    std::string operator()(Precise f) const { return (row.*(f.member)) ? fmt::format("{}", *(row.*(f.member))) : ""; }
    std::string operator()(SamplesField f) const { return format_samples(row.*f); }
    std::string operator()(OptBoolField f) const { return (row.*f) ? ((row.*f).value() ? "true" : "false") : ""; }
    std::string operator()(BoolField f) const { return (row.*f) ? "true" : "false"; }
    std::string operator()(StatusField) const { return row.status.text; }
};

struct Parser {
    ResultRow& row;
    std::string_view text;
    std::optional<std::string> operator()(StringField f) const {
        row.*f = std::string(text);
        return std::nullopt;
    }
    std::optional<std::string> operator()(IntField f) const { return parse_number(text, row.*f); }
    std::optional<std::string> operator()(UintField f) const { return parse_number(text, row.*f); }
    std::optional<std::string> operator()(DoubleField f) const { return parse_number(text, row.*f); }
    std::optional<std::string> operator()(Precise f) const { return parse_number(text, row.*(f.member)); }
    std::optional<std::string> operator()(SamplesField f) const {
        auto& out = row.*f;
        out.clear();
        std::string_view rest = text;
        while (!rest.empty()) {
            auto semi = rest.find(';');
            std::optional<double> v;
            if (auto err = parse_number(rest.substr(0, semi), v)) return err;
            if (v) out.push_back(*v);
            if (semi == std::string_view::npos) break;
            rest.remove_prefix(semi + 1);
        }
        return std::nullopt;
    }
    std::optional<std::string> operator()(OptBoolField f) const {
        if (text.empty()) row.*f = std::nullopt;
        else if (text == "true") row.*f = true;
        else if (text == "false") row.*f = false;
        else return fmt::format("not true/false: '{}'", text.substr(0, 40));
        return std::nullopt;
    }
    std::optional<std::string> operator()(BoolField f) const {
        if (text == "true") row.*f = true;
        else if (text == "false" || text.empty()) row.*f = false;
        else return fmt::format("not true/false: '{}'", text.substr(0, 40));
        return std::nullopt;
    }
    std::optional<std::string> operator()(StatusField) const {
        std::string t(text.empty() ? "ok" : text);
        if (!StatusToken::valid(t)) return fmt::format("not a status token: '{}'", text.substr(0, 40));
        row.status.text = std::move(t);
        return std::nullopt;
    }
};

}  // namespace

std::string format_field(const ResultRow& row, const FieldRef& field) {
    return std::visit(Formatter{row}, field);
}

std::optional<std::string> parse_field(ResultRow& row, const FieldRef& field, std::string_view text) {
    return std::visit(Parser{row, text}, field);
}

}  // namespace perfgate::detail
