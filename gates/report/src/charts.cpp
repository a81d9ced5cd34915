#include "perfgate/report/charts.hpp"

#include <algorithm>
#include <fstream>
#include <map>

#include <boost/filesystem.hpp>
#include <fmt/format.h>

#include "perfgate/gates/calendar.hpp"
#include "perfgate/report/escape.hpp"
#include "perfgate/report/gnuplot.hpp"

namespace perfgate::report {
namespace fs = boost::filesystem;

namespace {

// Labels are cut so that a long name cannot push the plot off the image.
std::string label(const std::string& text) { return text.size() > 100 ? text.substr(0, 97) + "..." : text; }

std::string line_label(const ModelLine& line) {
    std::string out = line.model;
    if (line.harness != "text") out += " [" + line.harness + "]";
    if (line.prompt_len) out += " p" + std::to_string(*line.prompt_len);
    return label(out);
}

std::string terminal(int width, int height) {
    return fmt::format("set terminal svg noenhanced size {},{} dynamic background rgb 'white' font 'sans,11'\n", width,
                       height);
}

bool write_file(const fs::path& path, const std::string& text) {
    std::ofstream out(path.string(), std::ios::binary | std::ios::trunc);
    out << text;
    return static_cast<bool>(out);
}

// One colour per runtime, in the page's runtime order, so a runtime looks the same in every chart.
std::string runtime_colour(const ReportData& data, const std::string& runtime) {
    static const char* palette[] = {"#9400d3", "#009e73", "#56b4e9", "#e69f00", "#f0e442", "#0072b2", "#e51e10", "#000000"};
    auto it = std::find(data.runtimes.begin(), data.runtimes.end(), runtime);
    const auto i = static_cast<std::size_t>(it - data.runtimes.begin());
    return palette[i % (sizeof palette / sizeof palette[0])];
}

std::optional<Spread> metric_of(const RuntimeCell& cell, const std::string& metric) {
    return metric == "decode_tok_s" ? cell.decode : cell.prefill;
}

}  // namespace

GnuplotJob bar_chart_job(const ReportData& data, const std::string& metric, const std::string& data_file,
                         const std::string& svg_file) {
    GnuplotJob job;
    double lo = 0, hi = 0;
    std::string xtics;
    for (std::size_t i = 0; i < data.lines.size(); ++i) {
        const auto& line = data.lines[i];
        job.data += std::to_string(i);
        for (const auto& rt : data.runtimes) {
            auto it = line.cells.find(rt);
            std::optional<Spread> s;
            if (it != line.cells.end() && it->second.status == "ok") s = metric_of(it->second, metric);
            if (s) {
                job.data += fmt::format(" {} {} {}", s->median, s->min, s->max);
                lo = lo == 0 ? s->min : std::min(lo, s->min);
                hi = std::max(hi, s->max);
            } else {
                job.data += " ? ? ?";
            }
        }
        job.data += '\n';
        xtics += fmt::format("{}{} {}", i == 0 ? "" : ", ", gnuplot_string(line_label(line)), i);
    }
    const bool decode = metric == "decode_tok_s";
    const int width = std::max<int>(720, 70 * static_cast<int>(data.lines.size() * std::max<std::size_t>(1, data.runtimes.size())));
    auto& s = job.script;
    s += terminal(width, 560);
    s += "set output " + gnuplot_string(svg_file) + "\n";
    s += "set datafile missing '?'\n";
    s += fmt::format("set title '{} tok/s per model and runtime (bar: median; whisker: range of the samples)'\n",
                     decode ? "Decode" : "Prefill");
    s += "set ylabel 'tokens per second'\n";
    s += "set style data histograms\nset style histogram errorbars gap 1 lw 1\n";
    s += "set style fill solid 0.75 border -1\nset boxwidth 0.9\nset grid ytics\n";
    s += "set key outside top center horizontal\nset bmargin 12\n";
    // Readings often span two or more decades (a 0.6B and a 70B model); a log axis keeps both visible.
    if (lo > 0 && hi / lo > 30) s += "set logscale y\nset yrange [*:*]\n";
    else s += "set yrange [0:*]\n";
    s += "set xtics rotate by 35 right nomirror (" + xtics + ")\n";
    s += "plot ";
    for (std::size_t r = 0; r < data.runtimes.size(); ++r) {
        s += fmt::format("{}{} using {}:{}:{} title {} lc rgb '{}'", r == 0 ? "" : ", \\\n     ",
                         r == 0 ? gnuplot_string(data_file) : "''", 2 + 3 * r, 3 + 3 * r, 4 + 3 * r,
                         gnuplot_string(label(data.runtimes[r])), runtime_colour(data, data.runtimes[r]));
    }
    s += "\n";
    return job;
}

namespace {

std::optional<GnuplotJob> history_job(const ReportData& page, const std::string& model_title, const std::vector<const HistoryPoint*>& points,
                                      const std::string& data_file, const std::string& svg_file) {
    std::map<std::string, std::vector<const HistoryPoint*>> by_runtime;
    long first = 0, last = 0;
    double top = 0;
    bool any = false;
    for (const auto* p : points) {
        auto day = gates::day_number(p->date);
        if (!day) continue;  // only valid dates reach the data file
        by_runtime[p->runtime].push_back(p);
        top = std::max(top, p->decode_tok_s);
        first = any ? std::min(first, *day) : *day;
        last = any ? std::max(last, *day) : *day;
        any = true;
    }
    if (!any) return std::nullopt;
    GnuplotJob job;
    // Runtimes of the page first, in its order (and colours), then any other runtime of the history.
    std::vector<std::string> order;
    for (const auto& rt : page.runtimes)
        if (by_runtime.count(rt)) order.push_back(rt);
    for (const auto& [rt, pts] : by_runtime)
        if (std::find(order.begin(), order.end(), rt) == order.end()) order.push_back(rt);
    std::vector<std::string> titles;
    for (const auto& runtime : order) {
        const auto& pts = by_runtime[runtime];
        if (!job.data.empty()) job.data += "\n\n";  // gnuplot index separator
        for (const auto* p : pts) job.data += fmt::format("{} {}\n", *gates::day_number(p->date) * 86400L, p->decode_tok_s);
        titles.push_back(runtime);
    }
    auto& s = job.script;
    s += terminal(760, 420);
    s += "set output " + gnuplot_string(svg_file) + "\n";
    s += "set title " + gnuplot_string("Decode tok/s history on this host: " + label(model_title)) + "\n";
    s += "set ylabel 'decode tokens per second'\nset grid\nset key outside top center horizontal\n";
    s += "set xdata time\nset timefmt '%s'\nset format x '%Y-%m-%d'\nset xtics rotate by 35 right\n";
    const long span_days = last - first + 2;
    s += fmt::format("set xrange [{}:{}]\n", (first - 1) * 86400L, (last + 1) * 86400L);
    s += fmt::format("set xtics {}\n", std::max(1L, (span_days + 9) / 10) * 86400L);  // whole days, at most ~10 ticks
    s += fmt::format("set yrange [0:{}]\n", top > 0 ? top * 1.15 : 1.0);
    s += "plot ";
    for (std::size_t i = 0; i < titles.size(); ++i)
        s += fmt::format("{}{} index {} using 1:2 with linespoints lw 2 pt 7 lc rgb '{}' title {}",
                         i == 0 ? "" : ", \\\n     ", i == 0 ? gnuplot_string(data_file) : "''", i,
                         runtime_colour(page, titles[i]), gnuplot_string(label(titles[i])));
    s += "\n";
    return job;
}

}  // namespace

ChartOutcome draw_charts(const ReportData& data, const History& history, const std::string& dir,
                         const std::string& stem, const ChartOptions& options) {
    ChartOutcome out;
    if (!options.enabled) {
        out.not_drawn = "charts were turned off (--no-charts)";
        return out;
    }
    const auto gnuplot = find_gnuplot(options.search_path);
    if (gnuplot.empty()) {
        out.not_drawn = "gnuplot was not found on the search path";
        return out;
    }
    if (data.lines.empty()) {
        out.not_drawn = "no results to chart";
        return out;
    }
    boost::system::error_code ec;
    const auto work = fs::temp_directory_path(ec) / fs::unique_path("perfgate-report-%%%%-%%%%-%%%%");
    if (ec || !fs::create_directories(work, ec)) {
        out.not_drawn = "cannot create a temporary folder for gnuplot";
        return out;
    }
    const auto out_dir = fs::absolute(dir.empty() ? fs::path(".") : fs::path(dir));

    auto draw = [&](const std::string& title, const std::string& svg_name, const std::string& job_name,
                    const auto& make_job) {
        const auto data_path = (work / (job_name + ".dat")).string();
        const auto script_path = (work / (job_name + ".gp")).string();
        const auto svg_path = (out_dir / svg_name).string();
        std::optional<GnuplotJob> job = make_job(data_path, svg_path);
        if (!job) return;
        if (!write_file(data_path, job->data) || !write_file(script_path, job->script)) {
            out.failures.push_back(title + ": cannot write gnuplot's input in " + work.string());
            return;
        }
        auto ran = run_gnuplot(gnuplot, script_path, work.string());
        if (!ran) out.failures.push_back(title + ": " + ran.error().message);
        else out.images.push_back({title, svg_name});
    };

    const bool bars = data.lines.size() <= kMaxBarChartLines;
    if (!bars)
        out.omitted.push_back(fmt::format("decode and prefill bar charts: {} model lines, more than the {} one chart can show",
                                          data.lines.size(), kMaxBarChartLines));
    for (const auto& [metric, word] : {std::pair<std::string, std::string>{"decode_tok_s", "decode"}, {"prefill_tok_s", "prefill"}}) {
        if (!bars) break;
        draw(word == "decode" ? "Decode tok/s per model and runtime" : "Prefill tok/s per model and runtime",
             stem + "_" + word + ".svg", word, [&, m = metric](const std::string& d, const std::string& svg) {
                 return std::optional<GnuplotJob>(bar_chart_job(data, m, d, svg));
             });
    }
    // Each line's history points, gathered in one pass (a scan of every point per line was quadratic).
    std::vector<std::vector<const HistoryPoint*>> points_of(data.lines.size());
    for (const auto& p : history.points)
        if (p.line < points_of.size()) points_of[p.line].push_back(&p);
    std::size_t history_charts = 0, history_lines = 0;
    for (std::size_t i = 0; i < data.lines.size(); ++i) {
        const auto& line = data.lines[i];
        const auto& pts = points_of[i];
        if (pts.empty()) continue;
        if (++history_lines > kMaxHistoryCharts) continue;
        ++history_charts;
        const auto name = fmt::format("history_{:02}", i + 1);
        draw("Decode history: " + line_label(line), stem + "_" + name + "_" + file_slug(line.model) + ".svg", name,
             [&](const std::string& d, const std::string& svg) { return history_job(data, line_label(line), pts, d, svg); });
    }
    if (history_lines > history_charts)
        out.omitted.push_back(fmt::format("history charts of {} more model lines (at most {} are drawn)",
                                          history_lines - history_charts, kMaxHistoryCharts));
    fs::remove_all(work, ec);
    if (out.images.empty() && out.not_drawn.empty())
        out.not_drawn = out.omitted.empty() ? "gnuplot failed on every chart" : "the page is too large for charts";
    return out;
}

}  // namespace perfgate::report
