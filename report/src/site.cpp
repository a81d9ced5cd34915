#include "perfgate/report/site.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "escape.hpp"
#include "history_verdict.hpp"
#include "perfgate/core/file_read.hpp"
#include "perfgate/core/file_write.hpp"
#include "perfgate/core/metric.hpp"
#include "perfgate/gates/history_scan.hpp"
#include "perfgate/report/report_data.hpp"
#include "site_assets.hpp"
#include "site_comparison.hpp"

namespace perfgate::report {
namespace {

using Key = std::tuple<std::string, std::string, std::string, std::string>;  // host, runtime, model, metric

struct LatestVerdict {
    std::string verdict;
    std::optional<double> change;
    std::optional<double> reference;  // the level the gate judged the run against (recorded unit)
    double max_drop = 0;              // the floor it applied: a change beyond it in the bad direction
};

struct HostJudgment {
    std::string gate = "not judged";  // "pass", "fail", or why the gate did not judge
    std::string counts;
    std::size_t files = 0;
    nlohmann::ordered_json comparisons = nlohmann::ordered_json::array();  // site_comparison.hpp
};

// Runtimes compared like for like (or labelled) on the host's latest result file: the runs of one
// file were measured together, while the whole history mixes days and machines.
nlohmann::ordered_json host_comparisons(const std::vector<std::string>& files) {
    if (files.empty()) return nlohmann::ordered_json::array();
    auto latest = load_report_data({files.back()});
    if (!latest) return nlohmann::ordered_json::array();
    return runtime_comparisons(*latest, std::filesystem::path(files.back()).filename().string());
}

// The gate on the host's latest run against every earlier run of the folder, as a page judges its
// results (history_verdict.hpp): the site judges nothing itself.
HostJudgment judge_host(const SiteOptions& o, const std::string& host, std::map<Key, LatestVerdict>& verdicts) {
    HostJudgment j;
    ReportOptions ro;
    auto files = gates::host_result_files(o.benchmarks_dir, host);
    if (!files) return {"not judged: " + files.error().message, {}, 0};
    ro.results = *files;
    j.comparisons = host_comparisons(*files);
    ro.history_dir = o.benchmarks_dir;
    ro.thresholds_dir = o.thresholds_dir;
    j.files = ro.results.size();
    auto data = load_report_data(ro.results);
    if (!data) return {"not judged: " + data.error().message, {}, j.files, j.comparisons};
    const auto judged = judge_against_history(ro, *data);
    if (!judged || !*judged)
        return {judged ? "not judged: " + judged->error().message : "not judged", {}, j.files, j.comparisons};
    const gates::GateReport& report = **judged;
    j.gate = gates::passed(report) ? "pass" : "fail";
    j.counts = gates::verdict_counts(report);
    for (const auto& p : report.pairs)
        for (const auto& m : p.metrics)
            verdicts[{host, p.runtime, p.model, m.metric}] = {gates::to_string(m.verdict), m.change, m.baseline_value,
                                                               m.max_drop};
    return j;
}

// The gate judges a pair under its latest runtime flags only: its verdict belongs to the series
// whose runs are the latest, not to one of earlier flags.
bool latest_method(const std::vector<gates::HistorySeries>& all, const gates::HistorySeries& s) {
    return std::none_of(all.begin(), all.end(), [&](const gates::HistorySeries& o) {
        return &o != &s && o.host == s.host && o.runtime == s.runtime && o.model == s.model && o.metric == s.metric &&
               o.runs.back().when > s.runs.back().when;
    });
}

// "<folder>/acknowledgements.json:3" -> "acknowledgements.json:3": a published page names no folder
// of the machine that made it.
std::string file_and_line(const std::string& source) {
    const auto slash = source.rfind('/');
    return slash == std::string::npos ? source : source.substr(slash + 1);
}

// The acknowledged changes (thresholds/acknowledgements.json) of a series, each at the first run
// it holds for (a run at or after its "from", as the gate's reference reads it: reference.cpp);
// an entry that names a machine is shown where that machine's runs are.
nlohmann::ordered_json acknowledged_json(const gates::HistorySeries& s, const gates::Acknowledgements& acks) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& a : acks.entries()) {
        if (a.host != s.host || a.runtime != s.runtime || a.model != s.model || a.metric != s.metric) continue;
        nlohmann::ordered_json entry = {{"from", a.from}, {"why", a.why}, {"commit", a.commit}, {"machine", a.machine},
                                        {"source", file_and_line(a.source)}};
        for (std::size_t i = 0; i < s.runs.size(); ++i)
            if (s.runs[i].when >= a.from && (a.machine.empty() || s.runs[i].machine == a.machine)) {
                entry["index"] = i;
                break;
            }
        out.push_back(std::move(entry));
    }
    return out;
}

nlohmann::ordered_json series_json(std::size_t id, const gates::HistorySeries& s, const std::vector<gates::HistoryStep>& steps,
                                   const gates::Acknowledgements& acks, const std::map<Key, LatestVerdict>& verdicts,
                                   bool latest, const std::map<std::string, std::string>& commit_urls) {
    const Metric& m = metric(s.metric);
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < s.runs.size(); ++i) {
        const auto& r = s.runs[i];
        auto commit = s.commit_of_run.find(r.run);
        runs.push_back({{"run", r.run}, {"when", r.when}, {"value", r.value / m.display_scale},
                        {"machine", r.machine}, {"commit", commit == s.commit_of_run.end() ? "" : commit->second}});
    }
    nlohmann::ordered_json marks = nlohmann::ordered_json::array();
    for (const auto& st : steps) {
        if (st.host != s.host || st.runtime != s.runtime || st.model != s.model || st.metric != s.metric) continue;
        for (std::size_t i = 0; i < s.runs.size(); ++i)
            if (s.runs[i].run == st.first_after.run)
                marks.push_back({{"index", i}, {"change", st.step.change}, {"acknowledged_by", file_and_line(st.acknowledged_by)}});
    }
    nlohmann::ordered_json out = {{"id", id}, {"host", s.host}, {"runtime", s.runtime}, {"model", s.model},
                                  {"metric", s.metric}, {"flags", s.flags}, {"label", m.label}, {"unit", m.display_unit},
                                  {"better", m.better == Better::higher ? "higher" : "lower"}, {"runs", runs},
                                  {"steps", marks}, {"acknowledged", acknowledged_json(s, acks)}};
    if (auto url = commit_urls.find(s.runtime); url != commit_urls.end()) out["commit_url"] = url->second;
    if (auto v = verdicts.find({s.host, s.runtime, s.model, s.metric}); latest && v != verdicts.end()) {
        out["verdict"] = v->second.verdict;
        if (v->second.change) out["change"] = *v->second.change;
        // The chart's band: from the reference level to the floor in the metric's bad direction.
        if (const auto ref = v->second.reference) {
            const double bad = m.better == Better::higher ? 1.0 - v->second.max_drop : 1.0 + v->second.max_drop;
            out["reference"] = *ref / m.display_scale;
            out["floor_level"] = *ref * bad / m.display_scale;
        }
    }
    return out;
}

std::string flags_text(const nlohmann::ordered_json& s) {
    const std::string flags = s["flags"].get<std::string>();
    return flags.empty() ? std::string() : " (flags " + flags + ")";
}

// A run's commit, linked where the runtime has a commit URL (SiteOptions::commit_urls).
std::string commit_html(const nlohmann::ordered_json& s, const std::string& commit) {
    if (commit.empty()) return "-";
    const std::string shown = html_text(commit.substr(0, 12));
    if (!s.contains("commit_url")) return "<code>" + shown + "</code>";
    std::string url = s["commit_url"].get<std::string>();
    url.replace(url.find("{commit}"), 8, commit);
    return fmt::format("<a class=\"commit\" href=\"{}\"><code>{}</code></a>", html_text(url), shown);
}

// Under a chart, in words: each step the scan found (and the acknowledgement that covers it), and
// each acknowledged change of the series, so the marks can be read without hovering.
std::string marks_html(const nlohmann::ordered_json& s) {
    std::string items;
    const auto& runs = s["runs"];
    for (const auto& st : s["steps"]) {
        const auto& r = runs[st["index"].get<std::size_t>()];
        const std::string by = st["acknowledged_by"].get<std::string>();
        items += fmt::format("<li class=\"{}\">step of {:+.1f}% from run {} ({}){}</li>\n", by.empty() ? "step" : "acknowledged",
                             st["change"].get<double>() * 100, html_text(r["run"].get<std::string>()),
                             html_text(r["when"].get<std::string>().substr(0, 10)),
                             by.empty() ? ", not acknowledged" : ", acknowledged (" + html_text(by) + ")");
    }
    for (const auto& a : s["acknowledged"]) {
        const std::string at = a.contains("index")
                                   ? "from run " + html_text(runs[a["index"].get<std::size_t>()]["run"].get<std::string>())
                                   : "no run since";
        items += fmt::format("<li class=\"acknowledged\">acknowledged from {} ({}){}: {} ({})</li>\n",
                             html_text(a["from"].get<std::string>()), at,
                             a["commit"].get<std::string>().empty() ? "" : ", commit " + commit_html(s, a["commit"].get<std::string>()),
                             html_text(a["why"].get<std::string>()), html_text(a["source"].get<std::string>()));
    }
    return items.empty() ? std::string() : "<ul class=\"marks\">\n" + items + "</ul>\n";
}

std::string html_page(const nlohmann::ordered_json& doc, const SiteOptions& o) {
    std::string p =
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>perfgate: benchmark history</title>\n"
        "<link rel=\"stylesheet\" href=\"uPlot.min.css\">\n<link rel=\"stylesheet\" href=\"site.css\">\n</head>\n<body>\n"
        "<h1>perfgate: benchmark history</h1>\n";
    p += fmt::format("<p class=\"note\">Every result file of <code>{}</code>: one point per run (the median of its "
                     "samples), one line per machine, a dashed line at each lasting step the change-point scan found "
                     "(<code>perfgate history</code>), and for a judged series a grey band from the gate's reference "
                     "level (the line) to its floor. Verdicts are <code>perfgate gate</code>'s on each host's latest "
                     "run, with the thresholds of <code>{}</code>.</p>\n",
                     html_text(std::filesystem::path(o.benchmarks_dir).filename().string()),
                     html_text(std::filesystem::path(o.thresholds_dir).filename().string()));
    p += "<h2>Hosts</h2>\n<table id=\"hosts\">\n<tr><th>Host</th><th>Machines</th><th>Result files</th><th>Gate on the latest run</th></tr>\n";
    for (const auto& h : doc["hosts"])
        p += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{} {}</td></tr>\n",
                         html_text(h["host"].get<std::string>()), h["machines"].size(), h["files"].get<std::size_t>(),
                         html_text(h["gate"].get<std::string>()), html_text(h["counts"].get<std::string>()));
    p += "</table>\n<h2>Pairs</h2>\n<table id=\"pairs\">\n<tr><th>Host</th><th>Pair</th><th>Metric</th><th>Runs</th>"
         "<th>Latest</th><th>Commit</th><th>Verdict of the latest run</th><th>Change</th></tr>\n";
    for (const auto& s : doc["series"]) {
        // Runs under earlier flags are another method: the gate judged only the latest.
        const std::string verdict = s.contains("verdict") ? s["verdict"].get<std::string>() : "not judged";
        p += fmt::format(
            "<tr><td>{}</td><td><a href=\"#s-{}\">{}/{}</a></td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.6g} "
            "{}</td><td>{}</td><td class=\"{}\">{}</td><td class=\"num\">{}</td></tr>\n",
            html_text(s["host"].get<std::string>()), s["id"].get<std::size_t>(), html_text(s["runtime"].get<std::string>()),
            html_text(s["model"].get<std::string>()), html_text(s["label"].get<std::string>() + flags_text(s)), s["runs"].size(),
            s["runs"].back()["value"].get<double>(), html_text(s["unit"].get<std::string>()),
            commit_html(s, s["runs"].back()["commit"].get<std::string>()), file_slug(verdict),
            html_text(verdict), s.contains("change") ? fmt::format("{:+.1f}%", s["change"].get<double>() * 100) : "-");
    }
    p += "</table>\n<h2 id=\"runtimes\">Runtimes side by side</h2>\n";
    std::string tables;
    for (const auto& h : doc["hosts"]) tables += runtime_comparisons_html(h["host"].get<std::string>(), h["comparisons"]);
    p += tables.empty() ? "<p class=\"note\">No host's latest result file holds two runtimes measured on one model.</p>\n"
                        : tables;
    p += "<h2>History</h2>\n";
    for (const auto& s : doc["series"])
        p += fmt::format("<section class=\"series\" id=\"s-{0}\">\n<h3>{1} \u00b7 {2}/{3} \u00b7 {4}</h3>\n"
                         "<div class=\"chart\" id=\"chart-{0}\" data-points=\"{5}\"></div>\n<div class=\"tip\"></div>\n{6}</section>\n",
                         s["id"].get<std::size_t>(), html_text(s["host"].get<std::string>()),
                         html_text(s["runtime"].get<std::string>()), html_text(s["model"].get<std::string>()),
                         html_text(s["label"].get<std::string>() + flags_text(s)), s["runs"].size(), marks_html(s));
    // The data as JSON inside the page (a file:// page may not fetch). No '<', '>' or '&' is left
    // in it: "</" would close the script, and "<!--" followed by "<script" puts the HTML parser in
    // the script's double-escaped state, where the real "</script>" no longer ends it (a model named
    // "<!--<script>" swallowed the chart scripts, issue 48 item 19). In JSON those characters occur
    // only inside strings, where \u003c is the same character.
    std::string json;
    for (char c : doc.dump(-1, ' ', true)) {
        if (c == '<') json += "\\u003c";
        else if (c == '>') json += "\\u003e";
        else if (c == '&') json += "\\u0026";
        else json += c;
    }
    p += "<script type=\"application/json\" id=\"perfgate-data\">" + json + "</script>\n";
    p += "<script src=\"uPlot.iife.min.js\"></script>\n<script src=\"site.js\"></script>\n</body>\n</html>\n";
    return p;
}

Status write_into(const std::string& dir, const std::string& name, std::string_view text, SiteSummary& summary) {
    if (auto st = replace_file((std::filesystem::path(dir) / name).string(), text); !st) return st;
    summary.files.push_back(name);
    return Ok{};
}

}  // namespace

Expected<std::pair<std::string, std::string>> parse_commit_url(std::string_view text) {
    const auto eq = text.find('=');
    const std::string runtime(text.substr(0, eq == std::string_view::npos ? 0 : eq));
    const std::string url(eq == std::string_view::npos ? std::string_view() : text.substr(eq + 1));
    const auto at = url.find("{commit}");
    // Only http(s): the template becomes a link's href, and a javascript: URL would run on a click.
    if (runtime.empty() || (url.rfind("https://", 0) != 0 && url.rfind("http://", 0) != 0) || at == std::string::npos ||
        url.find("{commit}", at + 1) != std::string::npos)
        return make_error(fmt::format("--commit-url \"{}\": expected RUNTIME=URL, an http(s) URL holding {{commit}} once "
                                      "(e.g. llama-bench=https://github.com/ggml-org/llama.cpp/commit/{{commit}})",
                                      text));
    return std::pair{runtime, url};
}

Expected<SiteSummary> build_site(const SiteOptions& o) {
    const auto uplot = std::filesystem::path(o.uplot_dir);
    auto uplot_js = read_regular_file((uplot / "dist" / "uPlot.iife.min.js").string());
    auto uplot_css = read_regular_file((uplot / "dist" / "uPlot.min.css").string());
    auto uplot_licence = read_regular_file((uplot / "LICENSE").string());
    if (!uplot_js || !uplot_css || !uplot_licence)
        return make_error(fmt::format("uPlot not found in {} (dist/uPlot.iife.min.js, dist/uPlot.min.css, LICENSE): run "
                                      "scripts/bootstrap (npm ci in tools/site) or pass --uplot-dir",
                                      o.uplot_dir));
    auto series = gates::read_history_series(o.benchmarks_dir);
    if (!series) return series.error();
    if (series->empty()) return make_error(fmt::format("{}: no ok run to show", o.benchmarks_dir));
    auto acknowledgements = gates::read_acknowledgements(o.thresholds_dir);
    if (!acknowledgements) return acknowledgements.error();
    auto scan = gates::scan_history(o.benchmarks_dir, *acknowledgements, {});
    if (!scan) return scan.error();

    SiteSummary summary;
    std::map<Key, LatestVerdict> verdicts;
    nlohmann::ordered_json hosts = nlohmann::ordered_json::array();
    std::vector<std::string> host_names;
    for (const auto& s : *series)
        if (std::find(host_names.begin(), host_names.end(), s.host) == host_names.end()) host_names.push_back(s.host);
    for (const auto& host : host_names) {
        const HostJudgment j = judge_host(o, host, verdicts);
        std::vector<std::string> machines;
        for (const auto& s : *series)
            for (const auto& r : s.runs)
                if (s.host == host && std::find(machines.begin(), machines.end(), r.machine) == machines.end())
                    machines.push_back(r.machine);
        hosts.push_back({{"host", host}, {"machines", machines}, {"files", j.files}, {"gate", j.gate}, {"counts", j.counts},
                         {"comparisons", j.comparisons}});
    }
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < series->size(); ++i) {
        all.push_back(series_json(i, (*series)[i], scan->steps, *acknowledgements, verdicts,
                                  latest_method(*series, (*series)[i]), o.commit_urls));
        summary.runs += (*series)[i].runs.size();
    }
    summary.hosts = host_names.size();
    summary.series = series->size();
    const nlohmann::ordered_json doc = {{"hosts", hosts}, {"series", all}};

    std::error_code ec;
    std::filesystem::create_directories(o.output_dir, ec);
    if (ec) return make_error(fmt::format("{}: cannot create the folder: {}", o.output_dir, ec.message()));
    // The page is held here: the views below must not outlive what they view.
    const std::string page = html_page(doc, o);
    for (const auto& [name, text] : std::vector<std::pair<std::string, std::string_view>>{
             {"uPlot.iife.min.js", *uplot_js}, {"uPlot.min.css", *uplot_css}, {"uPlot.LICENSE", *uplot_licence},
             {"site.js", detail::site_js}, {"site.css", detail::site_css}, {"index.html", page}})
        if (auto st = write_into(o.output_dir, name, text, summary); !st) return st.error();
    return summary;
}

}  // namespace perfgate::report
