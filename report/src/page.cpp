#include "page.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>

#include <boost/filesystem.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "distinct.hpp"
#include "perfgate/core/metric.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/core/project_paths.hpp"
#include "escape.hpp"
#include "server_tables.hpp"
#include "sweep_series.hpp"
#include "sweep_tables.hpp"

namespace perfgate::report {
namespace {

using Rows = std::vector<const ResultRow*>;

// The page's runtimes as its tables show them: the points of a sweep (sweep_series.hpp) get a
// table of their own, the other servers one together (server_tables.hpp); every other runtime is a
// column of the results table.
struct Layout {
    std::vector<SweepSeries> sweeps;
    std::vector<std::string> servers;  // serving runtimes that are no sweep's point
    std::vector<std::string> columns;  // the others, in the page's order

    explicit Layout(const ReportData& d) : sweeps(sweep_series(d)) {
        const auto points = sweep_point_runtimes(sweeps);
        servers = server_runtimes(d, points);
        for (const auto& rt : d.runtimes)
            if (!points.count(rt) && std::find(servers.begin(), servers.end(), rt) == servers.end()) columns.push_back(rt);
    }
    bool has_column(const ModelLine& line) const {
        return std::any_of(columns.begin(), columns.end(), [&](const std::string& rt) { return line.cells.count(rt) > 0; });
    }
};

std::string md(const std::string& s) { return markdown_text(s); }

using detail::distinct;

// A command as a reader can paste it: the recorder writes paths relative to the project (or from
// <build>); an absolute path that is still there (an old row, a binary outside both) names a
// folder of the measuring machine only, so its folder becomes a placeholder and its name stays.
// Rows recorded before the recorder wrote every build-folder path from <build> name the project's
// build/<preset>/ folder instead (perfgate's presets build there): shown as <build>/ too, so one
// page shows one path style and the same command once.
std::string shown_command(const std::string& command) {
    return map_command_words(command, [](const std::string& word) {
        if (word.rfind("build/", 0) == 0) {
            const auto preset_end = word.find('/', 6);
            if (preset_end != std::string::npos && preset_end > 6 && preset_end + 1 < word.size())
                return std::string(build_placeholder) + word.substr(preset_end);
        }
        if (word.size() < 2 || word.front() != '/') return word;
        return "<host-path>/" + boost::filesystem::path(word).filename().string();
    });
}

std::string opt(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string(); }

std::string list_or_not_recorded(const std::vector<std::string>& values) {
    if (values.empty()) return not_recorded;
    return fmt::format("{}", fmt::join(mapped(values, md), ", "));
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

// The memory metrics' columns: host memory, and device memory where it was sampled.
// The columns of the metrics beside the two rates (peak memory, device memory, instructions per
// token), from the metric table (perfgate/core/metric.hpp), in its order: those some cell has.
std::vector<const Metric*> figure_columns(const ReportData& d, const std::vector<std::string>& runtimes) {
    std::vector<const Metric*> shown;
    for (const auto& m : metrics()) {
        if (m.key == "decode_tok_s" || m.key == "prefill_tok_s") continue;
        bool any = false;
        for (const auto& line : d.lines)
            for (const auto& rt : runtimes) {
                auto it = line.cells.find(rt);
                any = any || (it != line.cells.end() && it->second.figures.count(std::string(m.key)));
            }
        if (any) shown.push_back(&m);
    }
    return shown;
}

// A figure in its display unit: a peak (bytes) as its largest launch, as a memory budget is read;
// any other figure as its median.
std::string figure_text(const ModelLine& line, const std::string& runtime, const Metric& m) {
    auto it = line.cells.find(runtime);
    if (it == line.cells.end() || it->second.status != "ok") return "-";
    auto f = it->second.figures.find(std::string(m.key));
    if (f == it->second.figures.end()) return "-";
    const double value = m.unit == "bytes" ? f->second.max : f->second.median;
    return m.unit == "bytes" ? fmt::format("{:.1f}", value / m.display_scale) : fmt::format("{:.3f}", value / m.display_scale);
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
    return fmt::format("{}", fmt::join(parts, ", "));
}

// Mixture-of-experts models read only their active experts per token; the CSV has no active-byte
// count, so the name is the evidence (Mixtral, Qwen3-30B-A3B, qwen3moe-a1b).
bool looks_like_mixture_of_experts(const std::string& model) {
    std::string lower;
    for (char c : model) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("moe") != std::string::npos || lower.find("mixtral") != std::string::npos) return true;
    for (std::size_t i = 0; i + 2 < lower.size(); ++i)  // "-a3b", "-a1b": active parameters in the name
        if (lower[i] == '-' && lower[i + 1] == 'a' && std::isdigit(static_cast<unsigned char>(lower[i + 2]))) return true;
    return false;
}

std::string efficiency_text(const ModelLine& line, const std::vector<std::string>& runtimes, const Bandwidth& bw) {
    if (!line.model_bytes) return "model size not recorded";
    // The bytes a decoded token reads, where the row recorded them (a forge spec's active experts
    // and one embedding row); else the whole checkpoint, an upper bound for a mixture of experts.
    const bool active = line.active_model_bytes.has_value();
    const auto bytes = active ? line.active_model_bytes : line.model_bytes;
    const bool moe = !active && looks_like_mixture_of_experts(line.model);
    std::vector<std::string> parts;
    for (const auto& rt : runtimes) {
        auto it = line.cells.find(rt);
        if (it == line.cells.end() || it->second.status != "ok" || !it->second.decode) continue;
        // `model_bytes` is the size of the line's checkpoint; a runtime that builds its own
        // weights in another format (transformers in bf16) reads a size nobody recorded.
        if (!it->second.format.empty() && !line.format.empty() && it->second.format != line.format) {
            parts.push_back(fmt::format("{}: - ({} weights, size not recorded)", md(rt), md(it->second.format)));
            continue;
        }
        auto eff = decode_efficiency(bytes, it->second.decode->median, bw);
        if (!eff) continue;
        // A bound above all of the bandwidth bounds nothing: said so, never printed as a share.
        if (moe && *eff > 1.0) {
            parts.push_back(fmt::format("{}: not known (the rows do not record the bytes a token reads, and the "
                                        "whole-file bound, {:.1f}%, is above all of the bandwidth)",
                                        md(rt), *eff * 100.0));
            continue;
        }
        parts.push_back(fmt::format("{}: {}{:.1f}%", md(rt), moe ? "≤ " : "", *eff * 100.0));
    }
    if (parts.empty()) return "-";
    const bool bounded = moe && std::any_of(parts.begin(), parts.end(), [](const std::string& p) {
        return p.find("≤ ") != std::string::npos;
    });
    return fmt::format("{}{}", fmt::join(parts, "; "), bounded ? " (MoE: upper bound)" : "");
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
    std::string out = md(line.format) + (line.format_source == "model name" ? " (from the name)" : "");
    // The Size column is this checkpoint's; a runtime with other weights says which.
    for (const auto& [rt, cell] : line.cells)
        if (!cell.format.empty() && cell.format != line.format) out += fmt::format("; {}: {}", md(rt), md(cell.format));
    return out;
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
    return fmt::format("{}", fmt::join(all, ", "));
}

void render_header(std::string& p, const PageInputs& in, const Layout& layout) {
    const auto& d = *in.data;
    const Rows rows = d.all_rows();
    const auto host_name = [](const std::string& h) { return md(h.empty() ? "unknown host" : h); };
    const auto dates = distinct(rows, [](const ResultRow& r) { return r.date; });
    std::vector<std::string> shown = mapped(layout.columns, md);
    for (const auto& server : layout.servers) shown.push_back(md(server));
    for (const auto& sweep : layout.sweeps)
        if (auto t = sweep_title(sweep); std::find(shown.begin(), shown.end(), t) == shown.end()) shown.push_back(t);
    p += fmt::format("# Benchmark results: {} on {} ({})\n\n", fmt::join(shown, " vs "),
                     fmt::join(mapped(d.hosts, host_name), ", "), list_or_not_recorded(dates));
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
        // Labels and sources are markdown written by describe_environment; only values are data.
        p += fmt::format("| {} | {} | {} |\n", f.label, f.value == not_recorded ? f.value : md(f.value),
                         f.source.empty() ? "-" : f.source);
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
        std::vector<std::string> st;  // "ok 12", never empty: the count follows the status
        for (const auto& [k, n] : statuses) st.push_back(fmt::format("{} {}", md(k), n));
        p += fmt::format("| {} | {} | {} | {} |\n", md(boost::filesystem::path(f->file.path).filename().string()),
                         generation_name(*f), f->file.rows.size(),
                         st.empty() ? "-" : fmt::format("{}", fmt::join(st, ", ")));
    }
    p += "\n### Commands\n\n";
    p += "Run from the project root: paths are relative to it; `<build>` stands for the CMake build folder of the run "
         "(e.g. `build/cuda-perf`) and `<host-path>` for a folder of the measuring machine outside both.\n\n";
    bool any = false;
    for (const auto& rt : d.runtimes) {
        const auto cmds = distinct(d.rows_of(rt), [](const ResultRow& r) { return shown_command(r.command); });
        if (cmds.empty()) {
            p += fmt::format("- {}: not recorded (mlxcel's CSV files have no command column)\n", md(rt));
            continue;
        }
        any = true;
        std::string block;
        for (const auto& c : cmds) block += c + "\n";
        p += fmt::format("- {}:\n\n", md(rt)) + markdown_code_block(block) + "\n";
    }
    if (!any) p += "\n";
}

// Whether the rate columns have anything to say: a cell with a prefill or decode rate, or a status
// other than ok (shown there). A page of serving pairs only (docs/serving.md) has neither, and the
// columns would read "not run" and "-" for every server.
bool any_offline_rate(const ReportData& d, const std::vector<std::string>& runtimes) {
    for (const auto& line : d.lines)
        for (const auto& rt : runtimes) {
            auto it = line.cells.find(rt);
            if (it == line.cells.end()) continue;
            if (it->second.prefill || it->second.decode || it->second.status != "ok") return true;
        }
    return false;
}

void render_results(std::string& p, const PageInputs& in, const Layout& layout) {
    const auto& d = *in.data;
    const auto& runtimes = layout.columns;
    const bool rates = any_offline_rate(d, runtimes);
    const auto* cmp = in.comparison && rates ? &*in.comparison : nullptr;
    p += "## Results\n\n";
    const bool table = std::any_of(d.lines.begin(), d.lines.end(), [&](const ModelLine& l) { return layout.has_column(l); });
    if (!table) {  // only servers and sweeps: their tables are the results
        p += server_tables(d, layout.servers) + sweep_tables(layout.sweeps);
        return;
    }
    std::string head = "| Model | Data | Format | Size | Prompt/generated tokens |";
    std::string rule = "|---|---|---|---|---|";
    for (const auto& rt : rates ? runtimes : std::vector<std::string>{}) {
        head += fmt::format(" {} prefill tok/s |", md(rt));
        rule += "---:|";
    }
    if (cmp) {
        head += fmt::format(" prefill {}/{} |", md(cmp->pair.a), md(cmp->pair.b));
        rule += "---:|";
    }
    for (const auto& rt : rates ? runtimes : std::vector<std::string>{}) {
        head += fmt::format(" {} decode tok/s |", md(rt));
        rule += "---:|";
    }
    if (cmp) {
        head += fmt::format(" decode {}/{} |", md(cmp->pair.a), md(cmp->pair.b));
        rule += "---:|";
    }
    const auto figures = figure_columns(d, runtimes);
    for (const auto* m : figures)
        for (const auto& rt : runtimes) {
            head += fmt::format(" {} {} {} |", md(rt), m->label, m->display_unit);
            rule += "---:|";
        }
    // Efficiency is a share of the decode rate: a table without rates (servers only) has none.
    const auto* bandwidth = rates && in.bandwidth ? &*in.bandwidth : nullptr;
    if (bandwidth) {
        head += " Decode efficiency (share of memory bandwidth) |";
        rule += "---|";
    }
    p += head + "\n" + rule + "\n";
    // Each line's ratio, found once (a scan of every ratio per line was quadratic); the last one of
    // a line wins, as before.
    std::unordered_map<const ModelLine*, const ModelRatio*> ratio_of;
    if (cmp)
        for (const auto& m : cmp->models) ratio_of[m.line] = &m;
    for (const auto& line : d.lines) {
        if (!layout.has_column(line)) continue;  // a line of servers and sweep points only
        const auto found = ratio_of.find(&line);
        const ModelRatio* ratio = found == ratio_of.end() ? nullptr : found->second;
        std::string row = fmt::format("| {} | {} | {} | {} | {} |", model_cell(line), data_label(line), format_cell(line),
                                      size_text(line), prompt_gen_cell(line, runtimes));
        if (rates)
            for (const auto& rt : runtimes) row += " " + cell_text(line, rt, false) + " |";
        if (cmp) row += (ratio && ratio->prefill_ratio ? fmt::format(" {:.3f} |", *ratio->prefill_ratio) : " - |");
        if (rates)
            for (const auto& rt : runtimes) row += " " + cell_text(line, rt, true) + " |";
        if (cmp)
            row += (ratio && ratio->decode_ratio ? fmt::format(" {:.3f}{} |", *ratio->decode_ratio, ratio->below_min ? " **below gate**" : "")
                                                 : " - |");
        for (const auto* m : figures)
            for (const auto& rt : runtimes) row += " " + figure_text(line, rt, *m) + " |";
        if (bandwidth) row += " " + efficiency_text(line, runtimes, *bandwidth) + " |";
        p += row + "\n";
    }
    p += "\n";
    if (bandwidth)
        p += fmt::format("Decode efficiency: share = bytes a decoded token reads × decode tok/s ÷ memory bandwidth, here "
                         "{} ({}, measured {}; `{}` of the thresholds folder). The bytes a token reads are the row's "
                         "`active_model_bytes` where it recorded them (every weight once, a mixture's active experts "
                         "only, one row of an untied embedding), else the model's size; a mixture of experts without "
                         "them reads only its active experts, so its share (marked ≤) is an upper bound, and one above 100% bounds nothing: such a cell says so instead of a share.\n\n",
                         in.bandwidth->bytes_per_s >= 1e12 ? fmt::format("{:.2f} TB/s", in.bandwidth->bytes_per_s / 1e12)
                                                           : fmt::format("{:.1f} GB/s", in.bandwidth->bytes_per_s / 1e9),
                         md(in.bandwidth->source), md(in.bandwidth->date),
                         // The folder is the maker's; the file name and line are what a reader can find.
                         boost::filesystem::path(in.bandwidth->where).filename().string());
    else if (rates)
        p += "Decode efficiency is not computed: the memory bandwidth of this host is not known" +
             (in.bandwidth_note.empty() ? std::string() : " (" + in.bandwidth_note + ")") +
             "; docs/report.md says how to measure and record it.\n\n";
    p += server_tables(d, layout.servers) + sweep_tables(layout.sweeps);
}

void render_comparison(std::string& p, const PageInputs& in) {
    p += "## Comparison\n\n";
    if (!in.comparison) {
        p += fmt::format("No comparison between runtimes: {} runtime(s) on this page; pass `--compare A:B` to compare two "
                         "of them. Each pair's verdict against its own history is under *Verdict against history*.\n\n",
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
    // A ratio of two runtimes that load other weights (llama.cpp's Q4_0 GGUF against transformers'
    // bf16) measures the runtimes and the formats together: said next to the ratios, never implied.
    std::vector<std::string> unlike;
    for (const auto& m : c.models) {
        if ((m.decode_ratio || m.prefill_ratio) && m.other_weights())
            unlike.push_back(fmt::format("{}: {} against {}", md(m.line->model), md(m.format_a), md(m.format_b)));
    }
    if (!unlike.empty())
        p += fmt::format("- **Not like for like:** {} of {} compared models load other weights on each side ({}); their "
                         "ratios measure the runtimes and the weight formats together, not the runtimes alone.\n",
                         unlike.size(), c.compared(), fmt::join(unlike, "; "));
    if (c.min_ratio) {
        const auto failing = c.failing();
        const char* verdict = c.verdict() == RelativeGate::passed   ? "PASSED"
                              : c.verdict() == RelativeGate::failed ? "FAILED"
                                                                    : "NOT DECIDED (nothing compared)";
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
        p += "A history chart is drawn for each model measured on two or more dates: one point per run, in the "
             "order recorded, with a tick at the first run of each date; a line per runtime, with its latest run and "
             "the gate's floor in the legend; a point shape per machine (the runs' `machine_id`; runs without one "
             "share a shape, and the shapes are named in the legend when there are two machines or more); and the "
             "shaded band down to the gate's floor for the next run (the latest run less the pair's `max_drop` in "
             "the host's thresholds). History charts are drawn from:";
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
    const Layout layout(*in.data);
    render_header(p, in, layout);
    render_environment(p, in);
    render_method(p, in);
    render_results(p, in, layout);
    render_comparison(p, in);
    render_history_verdicts(p, in.verdicts);
    render_charts(p, in);
    render_reproduce(p, in);
    return p;
}

}  // namespace perfgate::report
