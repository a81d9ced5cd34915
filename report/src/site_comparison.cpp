#include "site_comparison.hpp"

#include <fmt/format.h>

#include "comparison.hpp"
#include "escape.hpp"

namespace perfgate::report {

nlohmann::ordered_json runtime_comparisons(const ReportData& latest, const std::string& file_name) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < latest.runtimes.size(); ++i)
        for (std::size_t j = i + 1; j < latest.runtimes.size(); ++j) {
            const auto c = compare_runtimes(latest, {latest.runtimes[i], latest.runtimes[j]}, std::nullopt);
            if (c.compared() == 0) continue;
            nlohmann::ordered_json models = nlohmann::ordered_json::array();
            for (const auto& m : c.models) {
                nlohmann::ordered_json row = {{"model", m.line->model}, {"format_a", m.format_a}, {"format_b", m.format_b},
                                              {"like_for_like", !m.other_weights()}, {"not_compared", m.not_compared}};
                const auto a = m.line->cells.find(c.pair.a), b = m.line->cells.find(c.pair.b);
                if (m.decode_ratio) {
                    row["decode_a"] = a->second.decode->median;
                    row["decode_b"] = b->second.decode->median;
                    row["decode_ratio"] = *m.decode_ratio;
                }
                if (m.prefill_ratio) row["prefill_ratio"] = *m.prefill_ratio;
                models.push_back(std::move(row));
            }
            out.push_back({{"a", c.pair.a}, {"b", c.pair.b}, {"file", file_name}, {"models", models}});
        }
    return out;
}

namespace {

std::string ratio_cell(const nlohmann::ordered_json& row, const char* key) {
    return row.contains(key) ? fmt::format("{:.3f}", row[key].get<double>()) : "-";
}

}  // namespace

std::string runtime_comparisons_html(const std::string& host, const nlohmann::ordered_json& comparisons) {
    std::string p;
    for (const auto& c : comparisons) {
        const auto a = html_text(c["a"].get<std::string>()), b = html_text(c["b"].get<std::string>());
        p += fmt::format("<h3>{}: {} versus {}</h3>\n<p class=\"note\">Medians of <code>{}</code>, the host's latest "
                         "result file; ratio = {} &divide; {} (above 1: {} is faster). A row whose two sides loaded "
                         "other weights is <em>not like for like</em>: its ratio measures the runtimes and the weight "
                         "formats together.</p>\n",
                         html_text(host), a, b, html_text(c["file"].get<std::string>()), a, b, a);
        p += fmt::format("<table class=\"comparison\">\n<tr><th>Model</th><th>Weights</th><th>{0} decode tok/s</th>"
                         "<th>{1} decode tok/s</th><th>decode {0}/{1}</th><th>prefill {0}/{1}</th><th>Like for like</th></tr>\n",
                         a, b);
        for (const auto& m : c["models"]) {
            const std::string fa = m["format_a"].get<std::string>(), fb = m["format_b"].get<std::string>();
            const std::string weights = fa == fb ? (fa.empty() ? "not recorded" : fa) : (fa.empty() ? "?" : fa) + " / " + (fb.empty() ? "?" : fb);
            const std::string like = !m["not_compared"].get<std::string>().empty()
                                         ? "not compared: " + m["not_compared"].get<std::string>()
                                     : m["like_for_like"].get<bool>() ? (fa.empty() || fb.empty() ? "formats not recorded" : "yes")
                                                                      : "not like for like: " + fa + " against " + fb;
            p += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num{}\">{}</td>"
                             "<td class=\"num{}\">{}</td><td>{}</td></tr>\n",
                             html_text(m["model"].get<std::string>()), html_text(weights),
                             m.contains("decode_a") ? fmt::format("{:.6g}", m["decode_a"].get<double>()) : "-",
                             m.contains("decode_b") ? fmt::format("{:.6g}", m["decode_b"].get<double>()) : "-",
                             m["like_for_like"].get<bool>() ? "" : " unlike", ratio_cell(m, "decode_ratio"),
                             m["like_for_like"].get<bool>() ? "" : " unlike", ratio_cell(m, "prefill_ratio"), html_text(like));
        }
        p += "</table>\n";
    }
    return p;
}

}  // namespace perfgate::report
