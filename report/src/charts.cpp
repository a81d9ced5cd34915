#include "perfgate/report/charts.hpp"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <map>
#include <set>

#include <boost/filesystem.hpp>
#include <fmt/format.h>

#include "perfgate/gates/calendar.hpp"
#include "escape.hpp"
#include "gnuplot.hpp"
#include "sweep_chart.hpp"

namespace perfgate::report {
namespace fs = boost::filesystem;

namespace {

// Labels are cut so that a long name cannot push the plot off the image.
std::string label(const std::string& text) { return text.size() > 100 ? text.substr(0, 97) + "..." : text; }

std::string line_label(const ModelLine& line) {
    std::string out = line.model;
    if (line.harness != "text") out += " [" + line.harness + "]";
    return label(out);
}

std::string terminal(int width, int height) {
    return fmt::format("set terminal svg noenhanced size {},{} dynamic background rgb 'white' font 'sans,10'\n", width,
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

std::optional<Spread> metric_of(const RuntimeCell& cell, const std::string& metric) { return cell.spread(metric); }

}  // namespace

namespace {

// A y axis that spans more than 30x is drawn on a log scale (a 0.6B and a 70B model side by side),
// and its label says so; the range is whole decades (log) or from zero (linear).
std::string y_axis(double lo, double hi, const std::string& what) {
    if (lo > 0 && hi / lo > 30) {
        const double bottom = std::pow(10.0, std::floor(std::log10(lo * 0.9)));
        const double top = std::pow(10.0, std::ceil(std::log10(hi * 1.1)));
        return fmt::format("set logscale y\nset yrange [{}:{}]\nset ylabel '{} (log scale)'\n", bottom, top, what);
    }
    return fmt::format("set yrange [0:{}]\nset ylabel '{}'\n", hi > 0 ? hi * 1.15 : 1.0, what);
}

// Whether some cell of the page has a reading of the metric: a page of servers has no decode
// rate, and its bar chart would be an empty frame.
bool any_reading(const ReportData& data, const std::string& metric) {
    for (const auto& line : data.lines)
        for (const auto& [rt, cell] : line.cells)
            if (cell.status == "ok" && metric_of(cell, metric)) return true;
    return false;
}

}  // namespace

GnuplotJob bar_chart_job(const ReportData& data, const std::string& metric, const std::string& data_file,
                         const std::string& svg_file) {
    GnuplotJob job;
    // Only lines with a reading: a model every runtime skipped is in the table, not an empty slot.
    std::vector<const ModelLine*> lines;
    for (const auto& line : data.lines)
        for (const auto& [rt, cell] : line.cells)
            if (cell.status == "ok" && metric_of(cell, metric)) {
                lines.push_back(&line);
                break;
            }
    const std::size_t runtimes = std::max<std::size_t>(1, data.runtimes.size());
    const double slot = 0.8 / static_cast<double>(runtimes);
    double lo = 0, hi = 0;
    std::string xtics;
    // One data block per runtime (gnuplot index), one row per line: x median min max.
    for (std::size_t r = 0; r < data.runtimes.size(); ++r) {
        if (r > 0) job.data += "\n\n";
        for (std::size_t i = 0; i < lines.size(); ++i) {
            auto it = lines[i]->cells.find(data.runtimes[r]);
            std::optional<Spread> s;
            if (it != lines[i]->cells.end() && it->second.status == "ok") s = metric_of(it->second, metric);
            const double x = static_cast<double>(i) + (static_cast<double>(r) - (static_cast<double>(runtimes) - 1) / 2) * slot;
            if (!s) continue;
            job.data += fmt::format("{} {} {} {}\n", x, s->median, s->min, s->max);
            lo = lo == 0 ? s->min : std::min(lo, s->min);
            hi = std::max(hi, s->max);
        }
        if (job.data.empty() || job.data.back() != '\n') job.data += "\n";
    }
    for (std::size_t i = 0; i < lines.size(); ++i)
        xtics += fmt::format("{}{} {}", i == 0 ? "" : ", ", gnuplot_string(line_label(*lines[i])), i);
    const bool decode = metric == "decode_tok_s";
    const int width = std::clamp<int>(120 + 45 * static_cast<int>(lines.size() * runtimes), 520, 1100);
    auto& s = job.script;
    s += terminal(width, 340);
    s += "set output " + gnuplot_string(svg_file) + "\n";
    s += fmt::format("set title '{} tok/s per model (bar: median; whisker: range of the samples)'\n",
                     decode ? "Decode" : "Prefill");
    s += y_axis(lo, hi, "tokens per second");
    s += "set style fill solid 0.8 border -1\n";
    s += fmt::format("set boxwidth {} absolute\n", slot * 0.9);
    s += "set grid ytics\nset key top right horizontal\nset tmargin 3\n";
    s += fmt::format("set xrange [-0.6:{}]\n", static_cast<double>(lines.size()) - 0.4);
    s += "set xtics rotate by 25 right nomirror scale 0 (" + xtics + ")\n";
    s += "plot ";
    for (std::size_t r = 0; r < data.runtimes.size(); ++r) {
        const auto file = r == 0 ? gnuplot_string(data_file) : std::string("''");
        s += fmt::format("{}{} index {} using 1:2 with boxes lc rgb '{}' title {}, \\\n     '' index {} "
                         "using 1:3:(0):($4-$3) with vectors nohead lw 1.5 lc rgb 'black' notitle",
                         r == 0 ? "" : ", \\\n     ", file, r, runtime_colour(data, data.runtimes[r]),
                         gnuplot_string(label(data.runtimes[r])), r);
    }
    s += "\n";
    return job;
}

namespace {

// Seconds since 1970 of a run: its first row's timestamp, else noon of its date.
std::optional<double> run_time(const HistoryPoint& p) {
    if (p.timestamp.size() >= 19) {
        std::tm tm{};
        if (strptime(p.timestamp.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) != nullptr) return static_cast<double>(timegm(&tm));
    }
    auto day = gates::day_number(p.date);
    if (!day) return std::nullopt;
    return static_cast<double>(*day) * 86400.0 + 43200.0;
}

// A runtime's runs with other flags (-t 1 instead of every thread) measure something else: the
// gate's history restarts there, and the chart draws them as a series of their own.
std::string series_name(const HistoryPoint& p) {
    return p.flags.empty() ? p.runtime : p.runtime + " " + p.flags;
}

std::optional<GnuplotJob> history_job(const ReportData& page, const ModelLine& line, const std::vector<const HistoryPoint*>& points,
                                      const std::optional<gates::ThresholdSet>& thresholds, const std::string& data_file,
                                      const std::string& svg_file) {
    std::map<std::string, std::vector<std::pair<double, const HistoryPoint*>>> by_runtime;
    std::set<std::string> dates;
    // The x axis is the order of the runs, not the clock: runs come in bursts (eleven in one
    // afternoon, then nothing for days), and each must stay a point of its own.
    std::map<std::string, double> run_start;  // run -> its earliest time
    for (const auto* p : points) {
        auto t = run_time(*p);
        if (!t || !(p->decode_tok_s > 0)) continue;  // only valid dates and readings reach the data file
        by_runtime[series_name(*p)].push_back({*t, p});
        dates.insert(p->date);
        auto [it, added] = run_start.try_emplace(p->run, *t);
        if (!added) it->second = std::min(it->second, *t);
    }
    // One date is one cloud of points, not a history.
    if (dates.size() < 2) return std::nullopt;
    std::vector<std::pair<double, std::string>> runs;
    for (const auto& [key, t] : run_start) runs.push_back({t, key});
    std::sort(runs.begin(), runs.end());
    std::map<std::string, std::size_t> ordinal;  // run -> 1, 2, ...
    for (std::size_t i = 0; i < runs.size(); ++i) ordinal[runs[i].second] = i + 1;
    GnuplotJob job;
    // Runtimes of the page first, in its order (and colours), then any other runtime of the history.
    std::vector<std::string> order;
    for (const auto& rt : page.runtimes)
        for (const auto& [series, pts] : by_runtime)
            if (pts.front().second->runtime == rt) order.push_back(series);
    for (const auto& [series, pts] : by_runtime)
        if (std::find(order.begin(), order.end(), series) == order.end()) order.push_back(series);
    const double left = 0.5, right = static_cast<double>(runs.size()) + 0.5;
    // Each runtime relative to its own latest run: runtimes 20x apart share one axis, a drop reads
    // as a percentage, and the gate's floor is the same kind of number.
    double lo = 100, hi = 100;
    std::string plots;
    std::size_t index = 0;
    auto block = [&](const std::string& rows) {
        if (!job.data.empty()) job.data += "\n\n";  // gnuplot index separator
        job.data += rows;
        return index++;
    };
    const auto file = [&] { return plots.empty() ? gnuplot_string(data_file) : std::string("''"); };
    const auto add_plot = [&](const std::string& text) { plots += (plots.empty() ? "" : ", \\\n     ") + text; };
    // One point shape per machine (machine_id; runs without one share a shape), the same in every
    // series of the chart: a level that moves with the machine reads as the machine, not the code.
    std::vector<std::string> machines;
    for (const auto& [series, pts] : by_runtime)
        for (const auto& [t, p] : pts)
            if (std::find(machines.begin(), machines.end(), p->machine) == machines.end()) machines.push_back(p->machine);
    std::sort(machines.begin(), machines.end());
    static const int shapes[] = {7, 5, 9, 11, 13, 15, 1, 2, 3, 4, 6, 8};
    const auto shape_of = [&](const std::string& machine) {
        const auto i = static_cast<std::size_t>(std::find(machines.begin(), machines.end(), machine) - machines.begin());
        return shapes[i % (sizeof shapes / sizeof shapes[0])];
    };
    std::map<std::string, int> series_of;
    for (const auto& series : order) {
        auto& pts = by_runtime[series];
        std::sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        const std::string& runtime = pts.front().second->runtime;
        const auto colour = runtime_colour(page, runtime);
        const int dash = ++series_of[runtime];  // a runtime's second series (other flags) is dashed
        // The gate's floor for the next run: the latest run less the pair's max_drop. The band is
        // explained under the chart, not in its legend, so the legend stays one line per series.
        const double latest = pts.back().second->decode_tok_s;
        std::string floor_text;
        if (thresholds) {
            const double drop = thresholds->lookup("decode_tok_s", line.model, runtime).max_drop;
            const double floor = 100 * (1 - drop);
            const auto i = block(fmt::format("{} {} 100\n{} {} 100\n", left, floor, right, floor));
            lo = std::min(lo, floor);
            floor_text = fmt::format(", floor -{:.1f}%", drop * 100);
            add_plot(fmt::format("{} index {} using 1:2:3 with filledcurves fs transparent solid 0.12 noborder "
                                 "lc rgb '{}' notitle",
                                 file(), i, colour));
        }
        std::string line_rows;
        std::map<std::string, std::string> rows_of_machine;
        for (const auto& [t, p] : pts) {
            const double share = 100 * p->decode_tok_s / latest;
            line_rows += fmt::format("{} {}\n", ordinal[p->run], share);
            rows_of_machine[p->machine] += fmt::format("{} {}\n", ordinal[p->run], share);
            lo = std::min(lo, share);
            hi = std::max(hi, share);
        }
        const auto i = block(line_rows);
        add_plot(fmt::format("{} index {} using 1:2 with lines lw 1 dt {} lc rgb '{}' title {}", file(), i, dash, colour,
                             gnuplot_string(fmt::format("{} ({:.4g} tok/s{})", label(series), latest, floor_text))));
        for (const auto& [machine, rows] : rows_of_machine)
            add_plot(fmt::format("{} index {} using 1:2 with points pt {} ps 0.6 lc rgb '{}' notitle", file(),
                                 block(rows), shape_of(machine), colour));
    }
    // The machines' shapes in the legend only when there is more than one to tell apart.
    if (machines.size() > 1)
        for (const auto& m : machines)
            add_plot(fmt::format("keyentry with points pt {} ps 0.6 lc rgb 'black' title {}", shape_of(m),
                                 gnuplot_string(m.empty() ? "machine not recorded" : "machine " + m.substr(0, 8))));
    auto& s = job.script;
    s += terminal(640, 320);
    s += "set output " + gnuplot_string(svg_file) + "\n";
    s += "set title " + gnuplot_string("Decode tok/s per run on this host, as % of the latest run: " + line_label(line)) + "\n";
    const double pad = std::max(1.0, (hi - lo) * 0.1);
    s += fmt::format("set yrange [{}:{}]\nset ylabel '% of the latest run'\n", lo - pad, hi + pad);
    s += "set grid\nset key outside top center horizontal samplen 1.5 spacing 0.9 font ',8'\n";
    // A tick at the first run of each date, labelled with the date.
    std::string xtics;
    std::set<std::string> labelled;
    for (const auto& [t, key] : runs) {
        const auto day = static_cast<long>(std::floor(t / 86400.0));
        std::time_t secs = static_cast<std::time_t>(day) * 86400;
        std::tm tm{};
        gmtime_r(&secs, &tm);
        char date[16];
        std::strftime(date, sizeof date, "%Y-%m-%d", &tm);
        if (!labelled.insert(date).second) continue;
        xtics += fmt::format("{}'{}' {}", xtics.empty() ? "" : ", ", date, ordinal[key]);
    }
    s += fmt::format("set xrange [{}:{}]\nset xtics nomirror rotate by 45 right ({})\nset xlabel 'runs in order (tick: first run of a date)'\n",
                     left, right, xtics);
    s += "plot " + plots + "\n";
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
                 if (!any_reading(data, m)) return std::optional<GnuplotJob>();
                 return std::optional<GnuplotJob>(bar_chart_job(data, m, d, svg));
             });
    }
    // One chart per sweep of the page (sweep_chart.hpp).
    const auto sweeps = sweep_series(data);
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        const auto& sweep = sweeps[i];
        if (i == kMaxHistoryCharts) {
            out.omitted.push_back(fmt::format("charts of {} more sweeps (at most {} are drawn)", sweeps.size() - i,
                                              kMaxHistoryCharts));
            break;
        }
        const auto name = fmt::format("sweep_{:02}", i + 1);
        draw(fmt::format("Sweep: {} over {}, {}", sweep.entry, sweep_axis_name(sweep.axis), sweep.model),
             stem + "_" + name + "_" + file_slug(sweep.entry + "-" + sweep.model) + ".svg", name,
             [&](const std::string& d, const std::string& svg) { return std::optional(sweep_chart_job(sweep, d, svg)); });
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
             [&](const std::string& d, const std::string& svg) {
                 return history_job(data, line, pts, options.thresholds, d, svg);
             });
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
