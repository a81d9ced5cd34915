#pragma once
// The dashboard's runtime-versus-runtime tables (perfgate site): for each two runtimes of a host's
// latest result file, each model's decode and prefill side by side with their ratio, and whether
// the two sides loaded the same weights. A ratio of Q4_0 against bf16 measures the runtimes and the
// formats together: such a row is labelled "not like for like", never shown as a plain ratio.
#include <string>

#include <nlohmann/json.hpp>

#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

// [{"a", "b", "file", "models": [{"model", "format_a", "format_b", "decode_a", "decode_b",
// "decode_ratio", "prefill_ratio", "like_for_like", "not_compared"}]}], one entry per runtime pair
// that has a model measured on both; empty with fewer than two runtimes.
nlohmann::ordered_json runtime_comparisons(const ReportData& latest, const std::string& file_name);

// The HTML of one host's comparisons (empty text when there are none).
std::string runtime_comparisons_html(const std::string& host, const nlohmann::ordered_json& comparisons);

}  // namespace perfgate::report
