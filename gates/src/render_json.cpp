#include <nlohmann/json.hpp>

#include "perfgate/core/json_optional.hpp"  // an unknown value is null
#include "perfgate/gates/render.hpp"

namespace perfgate::gates {
namespace {

using nlohmann::json;

// `value` as nlohmann's dump(2) writes it at `depth` levels of nesting: its lines after the first
// indented by the enclosing levels. Invalid UTF-8 in a model name must not throw: it is replaced.
std::string dump_at(const json& value, int depth) {
    const std::string text = value.dump(2, ' ', false, json::error_handler_t::replace);
    const std::string indent(static_cast<std::size_t>(2 * depth), ' ');
    std::string out;
    out.reserve(text.size() + indent.size() * 8);
    for (char c : text) {
        out += c;
        if (c == '\n') out += indent;  // strings hold no raw line breaks: dump escapes them
    }
    return out;
}

json metric_json(const MetricCheck& m) {
    return {{"metric", m.metric},
            {"verdict", to_string(m.verdict)},
            {"baseline", m.baseline_value},
            {"current", m.current_value},
            {"change", m.change},
            {"baseline_samples", m.baseline_samples},
            {"current_samples", m.current_samples},
            {"max_drop", m.max_drop},
            {"alpha", m.alpha},
            {"test", m.test},
            {"p_value", m.p_value},
            {"history_runs", m.history_runs},
            {"history_sessions", m.history_sessions},
            {"reference_runs", m.reference_runs},
            {"reference", m.reference},
            {"run_noise", m.run_noise},
            {"min_detectable_effect", m.min_detectable_effect},
            {"threshold_source", m.threshold_source},
            {"reason", m.reason}};
}

json pair_json(const PairReport& p) {
    json metrics = json::array();
    for (const auto& m : p.metrics) metrics.push_back(metric_json(m));
    return {{"model", p.model},
            {"current_model", p.current_model},
            {"baseline_model", p.baseline_model},
            {"runtime", p.runtime},
            {"baseline_runtime", p.baseline_runtime},
            {"host", p.host},
            {"harness", p.harness},
            {"batch", p.batch},
            {"prompt_tokens", p.prompt_tokens},
            {"baseline_prompt_tokens", p.baseline_prompt_tokens},
            {"prompt_target_len", p.prompt_target_len},
            {"current_status", p.current_status},
            {"baseline_status", p.baseline_status},
            {"current_source", p.current_source},
            {"baseline_source", p.baseline_source},
            {"current_rows", p.current_rows},
            {"baseline_rows", p.baseline_rows},
            {"reruns", p.reruns},
            {"verdict", to_string(p.verdict)},
            {"reason", p.reason},
            {"warnings", p.warnings},
            {"metrics", metrics}};
}

}  // namespace

std::string render_json(const GateReport& report) {
    // Written pair by pair rather than as one document: a document of a million pairs held every
    // pair's JSON nodes at once (about 8 KB each; hardening issue, item 6). The text is what
    // dump(2) of the whole document gives: top-level keys in nlohmann's (sorted) order.
    std::string out = "{\n";
    out += "  \"baseline_ref\": " + dump_at(report.baseline_ref, 1) + ",\n";
    out += "  \"empty_run_failure\": " + dump_at(report.empty_run_failure, 1) + ",\n";
    out += "  \"exit_code\": " + dump_at(passed(report) ? 0 : 1, 1) + ",\n";
    out += "  \"notes\": " + dump_at(report.notes, 1) + ",\n";
    out += "  \"pairs\": [";
    for (const auto& p : report.pairs) {
        out += &p == &report.pairs.front() ? "\n    " : ",\n    ";
        out += dump_at(pair_json(p), 2);
    }
    out += report.pairs.empty() ? "],\n" : "\n  ],\n";
    out += "  \"run_failures\": " + dump_at(report.run_failures, 1) + ",\n";
    out += "  \"warnings\": " + dump_at(report.warnings, 1) + "\n";
    out += "}\n";
    return out;
}

std::optional<ReportFormat> report_format_from_string(std::string_view name) {
    if (name == "text") return ReportFormat::text;
    if (name == "markdown") return ReportFormat::markdown;
    if (name == "junit") return ReportFormat::junit;
    if (name == "json") return ReportFormat::json;
    return std::nullopt;
}

std::string render(const GateReport& report, ReportFormat format, const TextStyle& style) {
    switch (format) {
        case ReportFormat::text: return render_text(report, style);
        case ReportFormat::markdown: return render_markdown(report);
        case ReportFormat::junit: return render_junit(report);
        case ReportFormat::json: return render_json(report);
    }
    return render_text(report, style);
}

}  // namespace perfgate::gates
