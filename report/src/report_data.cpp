#include "perfgate/report/report_data.hpp"

#include <algorithm>
#include <cmath>
#include <regex>
#include <unordered_map>

#include "distinct.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/core/metric.hpp"

namespace perfgate::report {
namespace {

std::string text_of(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("?"); }

void fill_cell(RuntimeCell& cell) {
    std::vector<double> decode, prefill;
    std::map<std::string, std::vector<double>> figures;
    bool any_ok = false;
    std::string last_status;
    detail::OrderedUnique prompt_gen;
    for (const auto* g : cell.groups) {
        auto d = g->samples("decode_tok_s");
        auto p = g->samples("prefill_tok_s");
        decode.insert(decode.end(), d.begin(), d.end());
        prefill.insert(prefill.end(), p.begin(), p.end());
        for (const auto& key : registered_metric_keys()) {
            if (key == "decode_tok_s" || key == "prefill_tok_s") continue;
            auto v = g->samples(key);
            if (!v.empty()) figures[key].insert(figures[key].end(), v.begin(), v.end());
        }
        if (!g->ok_rows.empty()) any_ok = true;
        last_status = g->status();
        cell.date = std::max(cell.date, g->date());
        if (cell.host.empty()) cell.host = g->host;
        for (const auto* r : g->ok_rows)
            prompt_gen.add(text_of(r->prompt_tokens) + "/" + text_of(r->generated_tokens));
    }
    cell.prompt_gen = prompt_gen.take();
    cell.status = any_ok ? "ok" : last_status;
    cell.decode = spread_of(decode);
    cell.prefill = spread_of(prefill);
    for (auto& [key, values] : figures)
        if (auto spread = spread_of(std::move(values))) cell.figures[key] = *spread;
}

}  // namespace

std::optional<std::int64_t> prompt_length(const gates::SampleGroup& g) {
    if (g.prompt_target_len) return g.prompt_target_len;
    return g.prompt_tokens();
}

bool same_prompt_length(std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
    constexpr double tolerance = 0.10;
    if (!a || !b) return true;
    const double base = static_cast<double>(std::max<std::int64_t>(*a, 1));
    return std::fabs(static_cast<double>(*a - *b)) / base <= tolerance;
}

std::string format_from_model_name(const std::string& model) {
    // Trailing '-'-separated segments that name a precision or quantization scheme.
    static const std::regex segment_re("([0-9]+bit|bf16|fp16|f16|fp8|fp32|mxfp4|nvfp4|q[0-9][a-z0-9_]*|int[48]|awq|gptq)",
                                       std::regex::icase);
    std::vector<std::string> segments;
    std::size_t start = 0;
    while (true) {
        auto pos = model.find('-', start);
        segments.push_back(model.substr(start, pos == std::string::npos ? std::string::npos : pos - start));
        if (pos == std::string::npos) break;
        start = pos + 1;
    }
    std::size_t first = segments.size();
    while (first > 1 && std::regex_match(segments[first - 1], segment_re)) --first;
    std::string out;
    for (std::size_t i = first; i < segments.size(); ++i) out += (out.empty() ? "" : "-") + segments[i];
    return out;
}

std::optional<Spread> RuntimeCell::spread(const std::string& key) const {
    if (key == "decode_tok_s") return decode;
    if (key == "prefill_tok_s") return prefill;
    auto it = figures.find(key);
    return it == figures.end() ? std::nullopt : std::optional(it->second);
}

std::vector<const ResultRow*> ReportData::all_rows() const {
    std::vector<const ResultRow*> rows;
    for (const auto& f : files)
        for (const auto& r : f->file.rows) rows.push_back(&r);
    return rows;
}

std::vector<const ResultRow*> ReportData::rows_of(const std::string& runtime) const {
    std::vector<const ResultRow*> rows;
    for (const auto& f : files)
        for (const auto& g : f->groups)
            if (g.runtime == runtime) rows.insert(rows.end(), g.rows.begin(), g.rows.end());
    return rows;
}

void arrange_lines(ReportData& data) {
    data.lines.clear();
    data.runtimes.clear();
    data.hosts.clear();
    const gates::ModelCatalog no_aliases;
    for (auto& f : data.files) {
        gates::RowContext context;
        context.file_name = f->name;
        f->groups = gates::group_rows(f->file.rows, context, no_aliases);
    }
    struct Pending {
        ModelLine line;
        std::string model_key;
    };
    std::vector<Pending> pending;
    // The lines of each model key, by index into `pending`, in the order they were started: a
    // group looks only at its own model's lines (a scan of every line per group was quadratic).
    std::unordered_map<std::string, std::vector<std::size_t>> lines_of_model;
    detail::OrderedUnique runtimes, hosts;
    for (auto& f : data.files) {
        for (const auto& g : f->groups) {
            runtimes.add(g.runtime);
            hosts.add(g.host);
            const auto len = prompt_length(g);
            const auto key = g.model_key();
            // Join the line of this model whose prompt length matches and that has no other prompt
            // length of this runtime yet; else start a line.
            auto& candidates = lines_of_model[key];
            Pending* target = nullptr;
            for (auto index : candidates) {
                auto& p = pending[index];
                if (!same_prompt_length(p.line.prompt_len, len)) continue;
                auto it = p.line.cells.find(g.runtime);
                if (it != p.line.cells.end() && prompt_length(*it->second.groups.front()) != len) continue;
                target = &p;
                break;
            }
            if (target == nullptr) {
                Pending p;
                p.model_key = key;
                p.line.model = g.model;
                p.line.harness = g.harness;
                p.line.batch = g.batch;
                p.line.prompt_len = len;
                candidates.push_back(pending.size());
                pending.push_back(std::move(p));
                target = &pending.back();
            }
            auto& line = target->line;
            if (!line.prompt_len) line.prompt_len = len;
            line.cells[g.runtime].groups.push_back(&g);
            if (f->imported()) line.imported = true;
            auto& cell = line.cells[g.runtime];
            for (const auto* r : g.rows) {
                if (cell.format.empty()) cell.format = r->format;
                if (r->synthetic) line.synthetic = true;
                if (!line.model_bytes && r->model_bytes) line.model_bytes = r->model_bytes;
                if (!line.active_model_bytes && r->active_model_bytes) line.active_model_bytes = r->active_model_bytes;
                if (line.format.empty() && !r->format.empty()) {
                    line.format = r->format;
                    line.format_source = "format column";
                }
            }
        }
    }
    data.runtimes = runtimes.take();
    data.hosts = hosts.take();
    for (auto& p : pending) {
        if (p.line.format.empty()) {
            p.line.format = format_from_model_name(p.line.model);
            if (!p.line.format.empty()) p.line.format_source = "model name";
        }
        for (auto& [runtime, cell] : p.line.cells) fill_cell(cell);
        data.lines.push_back(std::move(p.line));
    }
}

Expected<ReportData> load_report_data(const std::vector<std::string>& csv_paths) {
    ReportData data;
    for (const auto& path : csv_paths) {
        auto file = read_results_csv(path);
        if (!file) return file.error();
        auto loaded = std::make_unique<LoadedFile>();
        loaded->file = std::move(*file);
        // A perfgate ab result file holds both arms of one runtime: each arm is a runtime of the
        // page ("llama-bench (base)", "llama-bench (head)"), never one series of both.
        for (auto& r : loaded->file.rows)
            if (!r.arm.empty()) r.runtime += " (" + r.arm + ")";
        loaded->name = gates::parse_benchmark_file_name(path);
        data.files.push_back(std::move(loaded));
    }
    arrange_lines(data);
    return data;
}

}  // namespace perfgate::report
