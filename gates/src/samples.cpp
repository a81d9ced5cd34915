#include "perfgate/gates/samples.hpp"

#include <algorithm>
#include <unordered_map>

#include "perfgate/core/metric.hpp"
#include "perfgate/gates/statistics.hpp"

namespace perfgate::gates {
namespace {

std::string opt_text(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("-"); }

std::optional<std::int64_t> median_of(const std::vector<const ResultRow*>& rows,
                                      std::optional<std::int64_t> ResultRow::*field) {
    std::vector<double> values;
    for (const auto* r : rows)
        if (r->*field) values.push_back(static_cast<double>(*(r->*field)));
    if (values.empty()) return std::nullopt;
    return static_cast<std::int64_t>(median(values));
}

}  // namespace

const std::vector<std::string>& gated_metrics() {
    return gated_metric_keys();
}

const std::string& headline_metric(const SampleGroup& g) {
    for (const auto& metric : gated_metrics())
        if (!g.samples(metric).empty()) return metric;
    return gated_metrics().front();
}

std::string SampleGroup::model_key() const {
    return model + '\x1f' + harness + '\x1f' + opt_text(batch);
}

std::string SampleGroup::key() const {
    return model_key() + '\x1f' + runtime + '\x1f' + opt_text(prompt_target_len);
}

std::string SampleGroup::date() const {
    std::string latest;
    for (const auto* r : rows) latest = std::max(latest, r->date);
    return latest;
}

std::optional<std::int64_t> SampleGroup::prompt_tokens() const { return median_of(ok_rows, &ResultRow::prompt_tokens); }
std::optional<std::int64_t> SampleGroup::generated_tokens() const {
    return median_of(ok_rows, &ResultRow::generated_tokens);
}
std::optional<std::int64_t> SampleGroup::max_tokens() const { return median_of(rows, &ResultRow::max_tokens); }

std::vector<double> SampleGroup::samples(const std::string& metric) const {
    const auto read = perfgate::metric(metric).samples;
    std::vector<double> out;
    for (const auto* r : ok_rows) {
        const std::vector<double> s = (r->*read)();
        out.insert(out.end(), s.begin(), s.end());
    }
    return out;
}

std::string SampleGroup::status() const {
    if (!ok_rows.empty()) return "ok";
    return rows.back()->status.text;
}

std::string SampleGroup::source() const {
    const auto& r = first();
    return r.source_file + ":" + std::to_string(r.source_line);
}

std::vector<SampleGroup> group_rows(const std::vector<ResultRow>& rows, const RowContext& context,
                                    const ModelCatalog& catalog) {
    std::vector<SampleGroup> groups;
    std::unordered_map<std::string, std::size_t> index;
    const auto& fname = context.file_name;
    for (const auto& row : rows) {
        SampleGroup g;
        g.raw_model = row.model;
        g.model = catalog.canonical(row.model);
        g.runtime = !row.runtime.empty() ? row.runtime : fname ? runtime_of_series(fname->series) : std::string();
        g.series = fname ? fname->series : !row.backend.empty() ? row.backend : row.runtime;
        g.host = !context.host_override.empty() ? context.host_override
                 : !row.host.empty()            ? row.host
                 : fname                        ? fname->host
                                                : std::string();
        g.harness = (row.harness == "vlm" || (fname && fname->harness == "vlm")) ? "vlm" : "text";
        g.batch = row.batch;
        g.prompt_target_len = row.prompt_target_len;
        auto key = g.key();
        auto [it, inserted] = index.emplace(key, groups.size());
        if (inserted) groups.push_back(std::move(g));
        auto& group = groups[it->second];
        group.rows.push_back(&row);
        if (row.status.ok()) group.ok_rows.push_back(&row);
    }
    return groups;
}

}  // namespace perfgate::gates
