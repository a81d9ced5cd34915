#include "history_verdict.hpp"

#include <set>

#include <boost/filesystem.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/core/metric.hpp"
#include "perfgate/gates/gate.hpp"
#include "escape.hpp"

namespace perfgate::report {
namespace {

// A value as the gate's reports read it: tok/s as recorded, memory in MiB.
std::string value_text(const std::string& metric, const std::optional<double>& v) {
    if (!v) return "-";
    const Metric* m = find_metric(metric);
    return m ? display_value(*m, *v) : fmt::format("{:.2f}", *v);
}

std::string change_text(const std::optional<double>& v) { return v ? fmt::format("{:+.1f}%", *v * 100) : "-"; }
std::string effect_text(const std::optional<double>& v) { return v ? fmt::format("{:.1f}%", *v * 100) : "-"; }

std::string metric_label(const std::string& metric) {
    const Metric* m = find_metric(metric);
    return m ? std::string(m->label) : markdown_text(metric);
}

// The pair: its model and runtime, then what tells two pairs of one model apart (harness, batch,
// prompt length), and the host only when the page spans several (otherwise the header says it).
std::string pair_cell(const gates::PairReport& p, bool name_host) {
    std::string out = markdown_text(p.model) + " on " + markdown_text(p.runtime);
    if (p.harness != "text" && !p.harness.empty()) out += " [" + markdown_text(p.harness) + "]";
    if (p.batch && *p.batch != 1) out += fmt::format(" (batch {})", *p.batch);
    if (p.prompt_target_len) out += fmt::format(", prompt {}", *p.prompt_target_len);
    if (name_host) out += ", " + markdown_text(p.host);
    return out;
}

// The rule that decided and how much history it had: "history, 10 runs", "fallback, 2 runs".
std::string rule_cell(const gates::MetricCheck& m) {
    if (m.test.empty()) return "-";
    if (m.history_runs == 0) return markdown_text(m.test);
    return fmt::format("{}, {} run{}", markdown_text(m.test), m.history_runs, m.history_runs == 1 ? "" : "s");
}

std::string verdict_cell(gates::Verdict v) {
    const std::string word = gates::to_string(v);
    return gates::fails_gate(v) ? "**" + word + "**" : word;
}

std::string why_cell(const gates::PairReport& p, const gates::MetricCheck& m) {
    std::vector<std::string> parts;
    if (!m.reason.empty()) parts.push_back(markdown_text(m.reason));
    for (const auto& w : p.warnings) parts.push_back("warning: " + markdown_text(w));
    return parts.empty() ? "-" : fmt::format("{}", fmt::join(parts, "; "));
}

void render_table(std::string& page, const gates::GateReport& report) {
    std::set<std::string> hosts;
    for (const auto& p : report.pairs) hosts.insert(p.host);
    const bool name_host = hosts.size() > 1;
    page += "| Pair | Metric | Verdict | Reference | Now | Change | Rule | MDE | Why |\n";
    page += "|---|---|---|---:|---:|---:|---|---:|---|\n";
    for (const auto& p : report.pairs) {  // worst first, as the gate sorts them
        if (p.metrics.empty()) {
            page += fmt::format("| {} | - | {} | - | - | - | - | - | {} |\n", pair_cell(p, name_host),
                                verdict_cell(p.verdict), p.reason.empty() ? "-" : markdown_text(p.reason));
            continue;
        }
        for (const auto& m : p.metrics)
            page += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", pair_cell(p, name_host),
                                metric_label(m.metric), verdict_cell(m.verdict), value_text(m.metric, m.baseline_value),
                                value_text(m.metric, m.current_value), change_text(m.change), rule_cell(m),
                                effect_text(m.min_detectable_effect), why_cell(p, m));
    }
    page += "\n";
}

// The page's latest run (by its rows' timestamps) and the result file that holds it, from the
// files the page already read; nullopt when no row has a run_id (mlxcel's files: each file is then
// judged whole, as the gate does).
struct LatestRun {
    std::string run_id, file;
};
std::optional<LatestRun> latest_run(const ReportData& data) {
    std::optional<LatestRun> latest;
    const ResultRow* newest = nullptr;
    for (const auto& loaded : data.files)
        for (const auto& row : loaded->file.rows)
            if (!row.run_id.empty() && (!newest || row.timestamp > newest->timestamp)) {
                latest = LatestRun{row.run_id, loaded->file.path};
                newest = &row;
            }
    return latest;
}

}  // namespace

HistoryVerdicts judge_against_history(const ReportOptions& options, const ReportData& data) {
    if (options.history_dir.empty()) return std::nullopt;
    // As `perfgate gate --benchmarks-dir` refuses a folder that is not there: a typo would make
    // every pair "new" and read as a fresh start.
    boost::system::error_code ec;
    if (!boost::filesystem::is_directory(options.history_dir, ec))
        return Expected<gates::GateReport>(make_error(fmt::format("--history-dir {}: no such folder", options.history_dir)));
    gates::GateOptions gate;
    gate.results = options.results;
    gate.benchmarks_dir = options.history_dir;
    gate.thresholds_dir = options.thresholds_dir;
    // A page of several runs (the committed H200 page: 19 runs in two day files kept in the
    // history folder) judges its latest run against every run before it, its own files' earlier
    // runs included. Judged as whole files, the gate leaves the page's files out of the history
    // and finds nothing to compare: every pair "new", the run "fail".
    if (const auto latest = latest_run(data)) {
        gate.results = {latest->file};
        gate.exclude_run_id = latest->run_id;
    }
    return gates::run_gate(gate);
}

void render_history_verdicts(std::string& page, const HistoryVerdicts& verdicts) {
    page += "## Verdict against history\n\n";
    if (!verdicts) {
        page += "No verdict against history: no `--history-dir` was given, so there is no history to judge the results "
                "against.\n\n";
        return;
    }
    if (!*verdicts) {
        page += "No verdict against history: the gate refused its input: " + markdown_text(verdicts->error().message) + "\n\n";
        return;
    }
    const gates::GateReport& report = **verdicts;
    page += fmt::format("What `perfgate gate` says of the latest run of these result files against the earlier results "
                        "(the history folder's, and the earlier runs of these files) and the host's thresholds: **{}** "
                        "({}).\n\n",
                        gates::passed(report) ? "pass" : "fail", markdown_text(gates::verdict_counts(report)));
    const auto run_failures = gates::run_failure_lines(report);
    for (const auto& failure : run_failures) page += "- fails the gate: " + markdown_text(failure) + "\n";
    if (!run_failures.empty()) page += "\n";
    // The gate was run with its default power (judge_against_history sets no other).
    page += fmt::format("Each pair's latest run is judged against the reference level of its own history on this host "
                        "(docs/gate.md, \"Decision\"): *Reference* is that level, *Change* the run's change against it, "
                        "*Rule* the gate's rule and the runs behind it, *MDE* the smallest change in the bad direction "
                        "the rule would have called regressed (with {:.0f}% probability). The verdict words are the "
                        "gate's.\n\n",
                        gates::HistoryRule{}.power * 100);
    if (!report.pairs.empty()) render_table(page, report);
    for (const auto& w : report.warnings) page += "- warning: " + markdown_text(w) + "\n";
    for (const auto& n : report.notes) page += "- " + markdown_text(n) + "\n";
    if (!report.warnings.empty() || !report.notes.empty()) page += "\n";
}

std::string history_verdict_summary(const HistoryVerdicts& verdicts) {
    if (!verdicts) return "verdict against history: none (no --history-dir)\n";
    if (!*verdicts) return "verdict against history: none (" + verdicts->error().message + ")\n";
    return fmt::format("verdict against history: perfgate gate would {} ({})\n", gates::passed(**verdicts) ? "pass" : "fail",
                       gates::verdict_counts(**verdicts));
}

}  // namespace perfgate::report
