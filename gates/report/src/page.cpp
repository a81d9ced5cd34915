#include "perfgate/report/page.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include <boost/filesystem.hpp>
#include <fmt/format.h>

#include "distinct.hpp"
#include "perfgate/report/escape.hpp"

namespace perfgate::report {
namespace {

using Rows = std::vector<const ResultRow*>;

std::string md(const std::string& s) { return markdown_text(s); }

using detail::distinct;

std::string opt(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string(); }

std::string list_or_not_recorded(const std::vector<std::string>& values) {
    if (values.empty()) return not_recorded;
    std::string out;
    for (const auto& v : values) out += (out.empty() ? "" : ", ") + md(v);
    return out;
}

std::string tok_s(const std::optional<Spread>& s) {
    if (!s) return "-";
    if (s->n == 1) return fmt::format("{:.2f}", s->median);
    return fmt::format("{:.2f} ({:.2f}–{:.2f}, n={})", s->median, s->min, s->max, s->n);
}

std::string cell_text(const ModelLine& line, const std::string& runtime, bool decode) {
    auto it = line.cells.find(runtime);
    if (it == line.cells.end()) return "not run";
    if (it->second.status != "ok") return md(it->second.status);
    return tok_s(decode ? it->second.decode : it->second.prefill);
}

std::string size_text(const ModelLine& line) {
    if (!line.model_bytes) return not_recorded;
    return fmt::format("{:.2f} GiB", static_cast<double>(*line.model_bytes) / (1024.0 * 1024.0 * 1024.0));
}

std::string generation_name(const LoadedFile& f) {
    return f.imported() ? fmt::format("imported from mlxcel CSV (generation {})", to_string(f.file.generation))
                        : std::string("perfgate run");
}

std::string data_label(const ModelLine& line) {
    std::vector<std::string> parts;
    if (line.imported) parts.push_back("imported from mlxcel CSV");
    else parts.push_back("perfgate run");
    if (line.synthetic) parts.push_back("synthetic");
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
}

std::string roofline_text(const ModelLine& line, const std::vector<std::string>& runtimes,
                          const std::optional<Bandwidth>& bw) {
    if (!bw) return "bandwidth not known";
    if (!line.model_bytes) return "model size not recorded";
    std::string out;
    for (const auto& rt : runtimes) {
        auto it = line.cells.find(rt);
        if (it == line.cells.end() || it->second.status != "ok" || !it->second.decode) continue;
        auto eff = decode_efficiency(line.model_bytes, it->second.decode->median, bw);
        if (!eff) continue;
        out += fmt::format("{}{}: {:.1f}%", out.empty() ? "" : "; ", md(rt), *eff * 100.0);
    }
    return out.empty() ? "-" : out;
}

std::string model_cell(const ModelLine& line) {
    std::string out = md(line.model);
    if (line.harness != "text") out += " [" + md(line.harness) + "]";
    // Batch 1 is the usual single-stream case (said under Method); other batches name their line.
    if (line.batch && *line.batch != 1) out += fmt::format(" (batch {})", *line.batch);
    return out;
}

std::string format_cell(const ModelLine& line) {
    if (line.format.empty()) return not_recorded;
    return md(line.format) + (line.format_source == "model name" ? " (from the name)" : "");
}

std::string prompt_gen_cell(const ModelLine& line, const std::vector<std::string>& runtimes) {
    std::vector<std::string> all;
    for (const auto& rt : runtimes) {
        auto it = line.cells.find(rt);
        if (it == line.cells.end()) continue;
        for (const auto& pg : it->second.prompt_gen)
            if (std::find(all.begin(), all.end(), pg) == all.end()) all.push_back(pg);
    }
    if (all.empty()) return "-";
    std::string out;
    for (const auto& v : all) out += (out.empty() ? "" : ", ") + v;
    return out;
}

void render_header(std::string& p, const PageInputs& in) {
    const auto& d = *in.data;
    const Rows rows = d.all_rows();
    std::string runtimes;
    for (const auto& rt : d.runtimes) runtimes += (runtimes.empty() ? "" : " vs ") + md(rt);
    std::string hosts;
    for (const auto& h : d.hosts) hosts += (hosts.empty() ? "" : ", ") + md(h.empty() ? "unknown host" : h);
    const auto dates = distinct(rows, [](const ResultRow& r) { return r.date; });
    p += fmt::format("# Benchmark results: {} on {} ({})\n\n", runtimes, hosts, list_or_not_recorded(dates));
    p += "Made by `perfgate report` from the result files listed under *Method*. ";
    bool imported = false, synthetic = false;
    for (const auto& f : d.files) imported = imported || f->imported();
    for (const auto& l : d.lines) synthetic = synthetic || l.synthetic;
    if (imported)
        p += "**Historical data:** some rows are imported from mlxcel CSV files — replayed published "
             "results, not a run made by perfgate. ";
    if (synthetic) p += "**Synthetic models:** rows marked *synthetic* used forged models with random weights and real shapes. ";
    p += "\n\n";
}

void render_environment(std::string& p, const PageInputs& in) {
    p += "## Environment\n\n| Field | Value | Source |\n|---|---|---|\n";
    for (const auto& f : describe_environment(*in.data, in.operator_note))
        p += fmt::format("| {} | {} | {} |\n", md(f.label), f.value == not_recorded ? f.value : md(f.value),
                         f.source.empty() ? "-" : md(f.source));
    p += "\n";
}

void render_method(std::string& p, const PageInputs& in) {
    const auto& d = *in.data;
    const Rows rows = d.all_rows();
    p += "## Method\n\n";
    auto item = [&](const std::string& label, const std::vector<std::string>& values) {
        p += fmt::format("- **{}:** {}\n", label, list_or_not_recorded(values));
    };
    item("Harness", distinct(rows, [](const ResultRow& r) { return r.harness; }));
    item("Prompt length requested (tokens)", distinct(rows, [](const ResultRow& r) { return opt(r.prompt_target_len); }));
    item("Prompt tokens processed", distinct(rows, [](const ResultRow& r) { return opt(r.prompt_tokens); }));
    item("Prompt text", distinct(rows, [](const ResultRow& r) { return r.prompt; }));
    item("Decode length requested (max tokens)", distinct(rows, [](const ResultRow& r) { return opt(r.max_tokens); }));
    item("Tokens generated", distinct(rows, [](const ResultRow& r) { return opt(r.generated_tokens); }));
    item("Batch", distinct(rows, [](const ResultRow& r) { return opt(r.batch); }));
    item("Warmup runs", distinct(rows, [](const ResultRow& r) { return opt(r.warmup); }));
    item("Repetitions", distinct(rows, [](const ResultRow& r) { return opt(r.repetitions); }));
    item("Cooldown between runs (s)", distinct(rows, [](const ResultRow& r) {
             return r.cooldown_s ? fmt::format("{:g}", *r.cooldown_s) : std::string();
         }));
    item("Flags", distinct(rows, [](const ResultRow& r) { return r.flags; }));
    p += "- **Spread:** each tok/s cell is the median of the samples (`*_tok_s_samples` columns, else the "
         "single reading), with the range of the samples and their count when there is more than one.\n";
    p += "\n### Result files\n\n| File | Data | Rows | Status |\n|---|---|---|---|\n";
    for (const auto& f : d.files) {
        std::map<std::string, int> statuses;
        for (const auto& r : f->file.rows) ++statuses[r.status.text];
        std::string st;
        for (const auto& [k, n] : statuses) st += fmt::format("{}{} {}", st.empty() ? "" : ", ", md(k), n);
        p += fmt::format("| {} | {} | {} | {} |\n", md(boost::filesystem::path(f->file.path).filename().string()),
                         generation_name(*f), f->file.rows.size(), st.empty() ? "-" : st);
    }
    p += "\n### Commands\n\n";
    bool any = false;
    for (const auto& rt : d.runtimes) {
        const auto cmds = distinct(d.rows_of(rt), [](const ResultRow& r) { return r.command; });
        if (cmds.empty()) {
            p += fmt::format("- {}: not recorded (mlxcel's CSV files have no command column)\n", md(rt));
            continue;
        }
        any = true;
        p += fmt::format("- {}:\n\n", md(rt));
        for (const auto& c : cmds) p += markdown_code_block(c) + "\n";
    }
    if (!any) p += "\n";
}

void render_results(std::string& p, const PageInputs& in) {
    const auto& d = *in.data;
    const auto* cmp = in.comparison ? &*in.comparison : nullptr;
    p += "## Results\n\n";
    std::string head = "| Model | Data | Format | Size | Prompt/generated tokens |";
    std::string rule = "|---|---|---|---|---|";
    for (const auto& rt : d.runtimes) {
        head += fmt::format(" {} prefill tok/s |", md(rt));
        rule += "---:|";
    }
    if (cmp) {
        head += fmt::format(" prefill {}/{} |", md(cmp->pair.a), md(cmp->pair.b));
        rule += "---:|";
    }
    for (const auto& rt : d.runtimes) {
        head += fmt::format(" {} decode tok/s |", md(rt));
        rule += "---:|";
    }
    if (cmp) {
        head += fmt::format(" decode {}/{} |", md(cmp->pair.a), md(cmp->pair.b));
        rule += "---:|";
    }
    head += " Decode roofline (share of memory bandwidth) |";
    rule += "---|";
    p += head + "\n" + rule + "\n";
    // Each line's ratio, found once (a scan of every ratio per line was quadratic); the last one of
    // a line wins, as before.
    std::unordered_map<const ModelLine*, const ModelRatio*> ratio_of;
    if (cmp)
        for (const auto& m : cmp->models) ratio_of[m.line] = &m;
    for (const auto& line : d.lines) {
        const auto found = ratio_of.find(&line);
        const ModelRatio* ratio = found == ratio_of.end() ? nullptr : found->second;
        std::string row = fmt::format("| {} | {} | {} | {} | {} |", model_cell(line), data_label(line), format_cell(line),
                                      size_text(line), prompt_gen_cell(line, d.runtimes));
        for (const auto& rt : d.runtimes) row += " " + cell_text(line, rt, false) + " |";
        if (cmp) row += (ratio && ratio->prefill_ratio ? fmt::format(" {:.3f} |", *ratio->prefill_ratio) : " - |");
        for (const auto& rt : d.runtimes) row += " " + cell_text(line, rt, true) + " |";
        if (cmp)
            row += (ratio && ratio->decode_ratio ? fmt::format(" {:.3f}{} |", *ratio->decode_ratio, ratio->below_min ? " **below gate**" : "")
                                                 : " - |");
        row += " " + roofline_text(line, d.runtimes, in.bandwidth) + " |";
        p += row + "\n";
    }
    p += "\n";
    if (in.bandwidth)
        p += fmt::format("Roofline: decode reads every weight once per token, so share = model bytes × decode tok/s ÷ "
                         "{:.1f} GB/s (memory bandwidth from {}). Mixture-of-experts models read only their active "
                         "experts, so their share is an upper bound.\n\n",
                         in.bandwidth->bytes_per_s / 1e9, md(in.bandwidth->source));
    else
        p += "Roofline: bandwidth not known" + (in.bandwidth_note.empty() ? std::string() : " (" + md(in.bandwidth_note) + ")") +
             ", so decode efficiency is not computed.\n\n";
}

void render_comparison(std::string& p, const PageInputs& in) {
    p += "## Comparison\n\n";
    if (!in.comparison) {
        p += fmt::format("No comparison: {} runtime(s) on this page; pass `--compare A:B` to compare two of them.\n\n",
                         in.data->runtimes.size());
        return;
    }
    const auto& c = *in.comparison;
    const auto a = md(c.pair.a), b = md(c.pair.b);
    p += fmt::format("{} versus {} on the same host, measured at most {} calendar day(s) apart; ratio = {} ÷ {} "
                     "(above 1: {} is faster).\n\n",
                     a, b, c.max_date_gap_days, a, b, a);
    auto summary = [&](const char* metric, const std::optional<Spread>& s) {
        if (!s) {
            p += fmt::format("- **{}:** no model measured on both runtimes.\n", metric);
            return;
        }
        p += fmt::format("- **{}:** {} models, median ratio {:.3f}, quartiles {:.3f} / {:.3f}, range {:.3f} – {:.3f}\n",
                         metric, s->n, s->median, s->q1, s->q3, s->min, s->max);
    };
    summary("Decode", c.decode);
    summary("Prefill", c.prefill);
    if (c.min_ratio) {
        const auto failing = c.failing();
        const char* verdict = c.exit_code() == 0 ? "PASSED" : c.exit_code() == 1 ? "FAILED" : "NOT DECIDED (nothing compared)";
        p += fmt::format("- **Relative gate:** {} decode ≥ {:g} × {} decode for every model: **{}**", a, *c.min_ratio, b,
                         verdict);
        if (!failing.empty()) {
            p += " — below:";
            for (const auto* m : failing) p += fmt::format(" {} ({:.3f});", md(m->line->model), *m->decode_ratio);
            p.pop_back();
        }
        p += "\n";
    }
    bool header = false;
    for (const auto& m : c.models) {
        if (m.decode_ratio) continue;
        if (!header) p += "\nNot compared (listed, never dropped silently):\n\n";
        header = true;
        p += fmt::format("- {}: {}\n", model_cell(*m.line), md(m.not_compared));
    }
    p += "\n";
}

void render_charts(std::string& p, const PageInputs& in) {
    p += "## Charts\n\n";
    if (!in.charts.not_drawn.empty()) p += "Charts not drawn: " + md(in.charts.not_drawn) + ". The tables above hold every number.\n\n";
    for (const auto& img : in.charts.images)
        p += fmt::format("![{}]({})\n\n", md(img.title), img.file);  // file names are slugs (escape.hpp)
    for (const auto& f : in.charts.failures) p += "- chart failed: " + md(f) + "\n";
    for (const auto& o : in.charts.omitted) p += "- chart omitted: " + md(o) + "; the tables above hold every number\n";
    if (!in.charts.failures.empty() || !in.charts.omitted.empty()) p += "\n";
    if (!in.history.files_read.empty()) {
        p += "History charts are drawn from:";
        for (const auto& f : in.history.files_read)
            p += " " + md(boost::filesystem::path(f).filename().string()) + ";";
        p.pop_back();
        p += ".\n\n";
    }
    for (const auto& s : in.history.skipped) p += "- history file skipped: " + md(s) + "\n";
    if (!in.history.skipped.empty()) p += "\n";
}

void render_reproduce(std::string& p, const PageInputs& in) {
    p += "## How to reproduce\n\n";
    p += "1. Measure: run the commands under *Method* on the host described under *Environment*";
    bool mlxcel = false, pylm = false;
    for (const auto& f : in.data->files) {
        if (!f->imported()) continue;
        (f->file.generation == CsvGeneration::P ? pylm : mlxcel) = true;
    }
    if (mlxcel || pylm) {
        p += ". Imported rows were written by mlxcel's own scripts:";
        if (mlxcel) p += " `scripts/bench_decode.sh` (mlxcel);";
        if (pylm) p += " `scripts/bench_mlxlm.py` (mlx-lm reference);";
        p.pop_back();
    }
    p += ".\n2. Rebuild this page from the result files:\n\n";
    p += markdown_code_block(in.reproduce_command) + "\n";
}

}  // namespace

std::string render_page(const PageInputs& in) {
    std::string p;
    render_header(p, in);
    render_environment(p, in);
    render_method(p, in);
    render_results(p, in);
    render_comparison(p, in);
    render_charts(p, in);
    render_reproduce(p, in);
    return p;
}

}  // namespace perfgate::report
