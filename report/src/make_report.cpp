#include "perfgate/report/make_report.hpp"

#include "perfgate/core/file_write.hpp"

#include <fstream>

#include <boost/filesystem.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/gates/host_thresholds.hpp"
#include "page.hpp"

namespace perfgate::report {
namespace fs = boost::filesystem;

namespace {

std::string runtime_list(const ReportData& d) { return fmt::format("{}", fmt::join(d.runtimes, ", ")); }

}  // namespace

Expected<ReportOutcome> make_report(const ReportOptions& options) {
    if (options.results.empty()) return make_error("perfgate report: give at least one --results CSV");
    if (options.output.empty()) return make_error("perfgate report: --output is required");
    // The page is markdown: a name that promises another format would be a lie about its content.
    if (const auto ext = fs::path(options.output).extension().string(); ext != ".md" && ext != ".markdown")
        return make_error(fmt::format("perfgate report: --output {}: the page is markdown, so its name ends in .md (for "
                                      "an HTML dashboard of the history: perfgate site)",
                                      options.output));
    if (options.min_ratio && !(*options.min_ratio > 0))
        return make_error("perfgate report: --min-ratio must be a positive number");

    auto loaded = load_report_data(options.results);
    if (!loaded) return loaded.error();
    ReportData& data = *loaded;

    PageInputs in;
    in.data = &data;
    in.operator_note = options.note;
    in.reproduce_command = options.command_line;

    std::optional<RuntimePair> pair;
    if (options.compare) {
        pair = parse_runtime_pair(*options.compare);
        if (!pair) return make_error("perfgate report: --compare wants two different runtimes as A:B, got '" + *options.compare + "'");
        for (const auto* rt : {&pair->a, &pair->b})
            if (std::find(data.runtimes.begin(), data.runtimes.end(), *rt) == data.runtimes.end())
                return make_error(fmt::format("perfgate report: --compare: runtime '{}' is not in the results (they hold: {})",
                                              *rt, runtime_list(data)));
    } else if (data.runtimes.size() == 2) {
        pair = RuntimePair{data.runtimes[0], data.runtimes[1]};
        // Both arms of an A/B run: head against base, so a ratio above 1 says the head is faster.
        if (pair->a.size() > 7 && pair->a.ends_with(" (base)") && pair->b == pair->a.substr(0, pair->a.size() - 7) + " (head)")
            std::swap(pair->a, pair->b);
    }
    if (options.min_ratio && !pair)
        return make_error(fmt::format("perfgate report: --min-ratio needs --compare A:B (the results hold {} runtime(s): {})",
                                      data.runtimes.size(), runtime_list(data)));
    if (pair) in.comparison = compare_runtimes(data, *pair, options.min_ratio, options.max_date_gap_days);

    std::vector<std::string> hosts;
    for (const auto& h : data.hosts)
        if (!h.empty()) hosts.push_back(h);
    ChartOptions charts = options.charts;
    if (hosts.size() == 1) {
        auto thresholds = gates::load_host_thresholds(options.thresholds_dir, hosts.front());
        if (!thresholds) return thresholds.error();
        in.bandwidth = thresholds->memory_bandwidth;
        if (!in.bandwidth)
            in.bandwidth_note = fmt::format("no `memory_bandwidth` in `{}.json` of the thresholds folder", hosts.front());
        charts.thresholds = thresholds->set;
    } else {
        in.bandwidth_note = hosts.empty() ? "no host tag" : "the results come from several hosts";
    }

    const fs::path output(options.output);
    const auto dir = output.parent_path().empty() ? fs::path(".") : output.parent_path();
    boost::system::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return make_error(fmt::format("perfgate report: cannot create {}: {}", dir.string(), ec.message()));

    if (!options.history_dir.empty()) in.history = collect_history(options.history_dir, data);
    in.verdicts = judge_against_history(options, data);
    in.charts = draw_charts(data, in.history, dir.string(), output.stem().string(), charts);

    const auto page = render_page(in);
    // Whole or not at all: a page cut short by a full disk or an interrupt would be published as is.
    if (auto written = replace_file(output.string(), page); !written)
        return make_error("perfgate report: " + written.error().message);

    ReportOutcome outcome;
    outcome.page_path = output.string();
    for (const auto& img : in.charts.images) outcome.chart_files.push_back((dir / img.file).string());
    outcome.summary = fmt::format("wrote {} ({} chart(s){})\n", output.string(), in.charts.images.size(),
                                  in.charts.not_drawn.empty() ? "" : "; charts not drawn: " + in.charts.not_drawn);
    for (const auto& f : in.charts.failures) outcome.summary += "chart failed: " + f + "\n";
    for (const auto& o : in.charts.omitted) outcome.summary += "chart omitted: " + o + "\n";
    outcome.summary += history_verdict_summary(in.verdicts);
    if (in.comparison) {
        const auto& c = *in.comparison;
        if (c.decode)
            outcome.summary += fmt::format("{} vs {}: {} models, decode ratio median {:.3f} (quartiles {:.3f} / {:.3f})\n",
                                           c.pair.a, c.pair.b, c.decode->n, c.decode->median, c.decode->q1, c.decode->q3);
        if (c.min_ratio) {
            for (const auto* m : c.failing())
                outcome.summary += fmt::format("BELOW GATE: {}: {} decode is {:.3f} x {} (minimum {:g})\n", m->line->model,
                                               c.pair.a, *m->decode_ratio, c.pair.b, *c.min_ratio);
            if (c.compared() == 0) outcome.summary += "relative gate: no model was measured on both runtimes\n";
        }
        outcome.relative_gate = c.verdict();
    }
    return outcome;
}

}  // namespace perfgate::report
