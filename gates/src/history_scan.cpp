#include "perfgate/gates/history_scan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>

#include "pair_history.hpp"
#include "perfgate/core/metric.hpp"
#include "perfgate/core/file_read.hpp"
#include "perfgate/gates/host_thresholds.hpp"
#include "perfgate/gates/samples.hpp"

namespace perfgate::gates {
namespace {

HistoryRun run_at(const detail::PairHistory& pair, const RunLevel& level) {
    auto commit = pair.commit_of_run.find(level.run);
    return {level.run, level.when, commit == pair.commit_of_run.end() ? std::string() : commit->second};
}

// The entry that accepted the step: one of its pair and metric that starts after the last run at
// the old level and no later than the first run at the new one.
std::string covering(const Acknowledgements& acknowledgements, const HistoryStep& s) {
    // An entry without a machine holds on every machine; rows without an id match only those.
    const std::string machine = s.machine == detail::unknown_machine ? std::string() : s.machine;
    for (const Acknowledgement* a : acknowledgements.of({s.host, machine, s.runtime, s.model, s.metric}))
        if (a->from > s.last_before.when && a->from <= s.first_after.when) return a->source;
    return {};
}

HistoryStep make_step(const detail::PairHistory& pair, const std::string& metric, const std::vector<RunLevel>& runs,
                      const ChangePoint& c) {
    HistoryStep s;
    s.host = pair.host;
    s.machine = pair.machine;
    s.runtime = pair.runtime;
    s.model = pair.model;
    s.metric = metric;
    s.runs = runs.size();
    s.step = c;
    const Metric& m = perfgate::metric(metric);
    s.worse = worsening(m, c.change) > 0;
    // The gate never counts such a change against a floor (a runtime of a few MiB moves its peak by
    // an allocator arena); the history does not fail on it either, but still lists it.
    s.negligible = negligible(m, c.before, c.after);
    s.last_before = run_at(pair, runs[c.index - 1]);
    s.first_after = run_at(pair, runs[c.index]);
    return s;
}

// Sessions, not runs, are the scan's unit (issue 45 item 4). Runs of one sitting share the
// machine's state of that moment, so a test that takes them as independent reads a drift inside
// one sitting as a step: six transformers runs of one H200 sitting climbing from 30 to 41 tok/s
// were a "+37% step, p = 0.004". Each session is one level, the geometric mean of its runs;
// `first_run[k]` is the index of session k's first run in `runs`.
struct SessionLevels {
    std::vector<double> levels;
    std::vector<std::size_t> first_run;
};
SessionLevels session_levels(std::vector<RunLevel> runs, long long gap_s) {
    assign_sessions(runs, gap_s);
    SessionLevels out;
    double log_sum = 0;
    std::size_t count = 0;
    const auto close = [&] {
        if (count) out.levels.push_back(std::exp(log_sum / static_cast<double>(count)));
        log_sum = 0, count = 0;
    };
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (i == 0 || !same_session(runs[i], runs[i - 1])) {
            close();
            out.first_run.push_back(i);
        }
        log_sum += std::log(runs[i].value), ++count;
    }
    close();
    return out;
}

// Benjamini-Hochberg across the scan's series (issue 45 item 4): each series is tested at alpha,
// so a folder of 150 unchanged series would list about 1.5 false steps; a series' steps are kept
// only when its evidence (the smallest p of its steps) passes Benjamini-Hochberg at alpha over the
// `tested` series, which holds the expected share of false steps among those listed at alpha. A
// series without a step had p > alpha, above every threshold, so only its count matters. Returns
// the number of series whose steps were set aside.
std::size_t keep_discoveries(std::vector<HistoryStep>& steps, std::size_t tested, double alpha) {
    std::vector<std::pair<double, std::size_t>> series;  // (smallest p, its first step's index)
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (i == 0 || steps[i].series != steps[i - 1].series) series.emplace_back(steps[i].step.p_value, i);
        else series.back().first = std::min(series.back().first, steps[i].step.p_value);
    }
    std::vector<double> ps;
    for (const auto& [p, first] : series) ps.push_back(p);
    std::sort(ps.begin(), ps.end());
    double bar = -1;  // the largest p that passes: p_(k) <= k / tested * alpha
    for (std::size_t k = 1; k <= ps.size(); ++k)
        if (ps[k - 1] <= static_cast<double>(k) / static_cast<double>(tested) * alpha) bar = ps[k - 1];
    std::vector<bool> keep(steps.size(), false);
    std::size_t dropped = 0;
    for (std::size_t j = 0; j < series.size(); ++j) {
        const std::size_t end = j + 1 < series.size() ? series[j + 1].second : steps.size();
        const bool kept = series[j].first <= bar;
        dropped += kept ? 0 : 1;
        for (std::size_t i = series[j].second; i < end; ++i) keep[i] = kept;
    }
    std::vector<HistoryStep> out;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (keep[i]) out.push_back(std::move(steps[i]));
    steps = std::move(out);
    return dropped;
}

// `floor`: the pair's max_drop, when thresholds were given.
void scan_series(const detail::PairHistory& pair, const std::string& metric, const std::vector<RunLevel>& runs,
                 const Acknowledgements& acknowledgements, std::optional<double> floor, long long session_gap_s,
                 HistoryScan& out) {
    ++out.series;
    const SessionLevels units = session_levels(runs, session_gap_s);
    if (units.levels.size() < 2 * out.options.min_segment) return;
    ++out.tested;
    const std::vector<double>& levels = units.levels;
    // Half the floor: a step the gate could never fail on alone is not worth a false one (a lag-1
    // autocorrelated series wanders in small lasting steps that a test of independent runs calls real).
    ChangePointOptions options = out.options;
    if (floor) options.min_change = std::max(options.min_change, *floor / 2);
    const auto found = find_change_points(levels, options);
    if (!found.empty()) ++out.with_steps;
    for (ChangePoint c : found) {
        c.index = units.first_run[c.index];
        HistoryStep s = make_step(pair, metric, runs, c);
        s.sessions = levels.size();
        s.series = out.series;
        s.below_floor = floor && worsening(perfgate::metric(metric), c.change) < *floor;
        s.acknowledged_by = covering(acknowledgements, s);
        out.steps.push_back(std::move(s));
    }
}

// Levels must be positive for a ratio; a run with a zero reading (a broken row that still says
// ok) would stop the whole scan, so it is left out of its series instead.
std::vector<RunLevel> positive(const std::vector<RunLevel>& runs) {
    std::vector<RunLevel> out;
    for (const auto& r : runs)
        if (r.value > 0) out.push_back(r);
    return out;
}

std::string short_commit(const std::string& commit) { return commit.substr(0, 12); }

std::string percent(double x) { return fmt::format("{:+.1f}%", 100 * x); }

std::string run_text(const HistoryRun& r) {
    std::string s = fmt::format("run {} at {}", r.run, r.when);
    if (!r.commit.empty()) s += fmt::format(", commit {}", short_commit(r.commit));
    return s;
}

std::string pair_title(const HistoryStep& s) {
    const std::string sessions = s.sessions != s.runs ? fmt::format(" in {} sessions", s.sessions) : "";
    return fmt::format("{} {} {} {} (machine {}, {} runs{})", s.host, s.runtime, s.model, s.metric, s.machine, s.runs, sessions);
}

std::string step_line(const HistoryStep& s) {
    const Metric& m = perfgate::metric(s.metric);
    const std::string state = !s.worse          ? "better"
                              : s.negligible    ? "worse, negligible"
                              : s.below_floor   ? "worse, below the floor"
                              : s.acknowledged_by.empty() ? "worse, NOT acknowledged"
                                                          : "worse, acknowledged (" + s.acknowledged_by + ")";
    return fmt::format("  step at run {} of {}: {} -> {}, {} [{}, {}], p={:.3g}: {}\n    first run after: {}\n",
                       s.step.index + 1, s.runs, display_value(m, s.step.before), display_value(m, s.step.after),
                       percent(s.step.change), percent(s.step.change_low), percent(s.step.change_high), s.step.p_value,
                       state, run_text(s.first_after));
}

nlohmann::ordered_json run_json(const HistoryRun& r) {
    return {{"run", r.run}, {"when", r.when}, {"commit", r.commit}};
}

nlohmann::ordered_json step_json(const HistoryStep& s) {
    return {{"host", s.host},
            {"machine", s.machine},
            {"runtime", s.runtime},
            {"model", s.model},
            {"metric", s.metric},
            {"runs", s.runs},
            {"sessions", s.sessions},
            {"index", s.step.index},
            {"before", s.step.before},
            {"after", s.step.after},
            {"change", s.step.change},
            {"change_low", s.step.change_low},
            {"change_high", s.step.change_high},
            {"p_value", s.step.p_value},
            {"direction", s.worse ? "worse" : "better"},
            {"negligible", s.negligible},
            {"below_floor", s.below_floor},
            {"acknowledged_by", s.acknowledged_by.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(s.acknowledged_by)},
            {"last_before", run_json(s.last_before)},
            {"first_after", run_json(s.first_after)}};
}

// An entry that would accept the step, for the reviewer to complete with why.
std::string acknowledgement_example(const HistoryStep& s) {
    nlohmann::ordered_json e = {{"host", s.host}};
    if (s.machine != detail::unknown_machine) e["machine"] = s.machine;
    e["runtime"] = s.runtime;
    e["model"] = s.model;
    e["metric"] = s.metric;
    e["from"] = s.first_after.when;
    e["level"] = std::stod(fmt::format("{:.6g}", s.step.after));  // informational: 6 digits say it
    if (!s.first_after.commit.empty()) e["commit"] = short_commit(s.first_after.commit);
    e["why"] = "<why this change is accepted>";
    return e.dump();
}

}  // namespace

Expected<std::vector<HistorySeries>> read_history_series(const std::string& benchmarks_dir) {
    auto histories = detail::read_pair_histories(benchmarks_dir, {"", false, true});
    if (!histories) return histories.error();
    std::vector<HistorySeries> out;
    for (auto& h : *histories)
        for (auto& [metric, runs] : h.by_metric)
            if (!runs.empty()) out.push_back({h.host, h.runtime, h.model, metric, h.flags, std::move(runs), h.commit_of_run});
    return out;
}

Expected<std::vector<std::string>> host_result_files(const std::string& benchmarks_dir, const std::string& host) {
    auto files = detail::list_files(benchmarks_dir, host);
    if (!files) return files.error();
    std::vector<std::string> out;
    for (const auto& f : *files) out.push_back(f.path);
    return out;
}

Expected<HistoryScan> scan_history(const std::string& benchmarks_dir, const Acknowledgements& acknowledgements,
                                   const HistoryScanOptions& options) {
    auto pairs = detail::read_pair_histories(benchmarks_dir, {options.host, true});
    if (!pairs) return pairs.error();
    HistoryScan out;
    out.options = options.change_points;
    out.session_gap_s = options.session_gap_s;
    std::set<std::string> hosts, machines;
    std::map<std::string, HostThresholds> thresholds;  // by host tag, read once
    for (const auto& pair : *pairs) {
        hosts.insert(pair.host);
        machines.insert(pair.host + '\x1f' + pair.machine);
        const HostThresholds* host = nullptr;
        if (!options.thresholds_dir.empty()) {
            auto it = thresholds.find(pair.host);
            if (it == thresholds.end()) {
                auto loaded = load_host_thresholds(options.thresholds_dir, pair.host);
                if (!loaded) return loaded.error();
                it = thresholds.emplace(pair.host, std::move(*loaded)).first;
            }
            host = &it->second;
        }
        for (const auto& metric : gated_metrics()) {
            auto runs = pair.by_metric.find(metric);
            if (runs == pair.by_metric.end() || runs->second.empty()) continue;
            std::optional<double> floor;
            if (host) floor = host->set.lookup(metric, pair.model, pair.runtime).max_drop;
            scan_series(pair, metric, positive(runs->second), acknowledgements, floor, options.session_gap_s, out);
        }
    }
    out.set_aside_by_fdr = keep_discoveries(out.steps, out.tested, out.options.alpha);
    out.with_steps -= out.set_aside_by_fdr;
    out.hosts = hosts.size();
    out.machines = machines.size();
    return out;
}

Expected<Acknowledgements> read_acknowledgements(const std::string& thresholds_dir) {
    const std::string path = (std::filesystem::path(thresholds_dir) / acknowledgements_file_name).string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return Acknowledgements();
    auto text = read_regular_file(path);
    if (!text) return text.error();
    return parse_acknowledgements(*text, path);
}

std::vector<const HistoryStep*> unacknowledged_worsening(const HistoryScan& scan) {
    std::vector<const HistoryStep*> out;
    for (const auto& s : scan.steps)
        if (s.worse && !s.negligible && !s.below_floor && s.acknowledged_by.empty()) out.push_back(&s);
    return out;
}

std::string render_history_text(const HistoryScan& scan) {
    const auto& o = scan.options;
    std::string out = fmt::format(
        "perfgate history: {} series of pair and metric on {} host(s), {} machine(s); binary segmentation of log levels, "
        "Student's t of the strongest split, Bonferroni over the splits, alpha {:g} per test and, across the series, "
        "Benjamini-Hochberg at {:g}; at least {} sessions on each side of a step (runs less than {} s apart are one session)\n",
        scan.series, scan.hosts, scan.machines, o.alpha, o.alpha, o.min_segment, scan.session_gap_s);
    std::string title;
    for (const auto& s : scan.steps) {
        if (pair_title(s) != title) out += "\n" + (title = pair_title(s)) + "\n";
        out += step_line(s);
    }
    if (!scan.steps.empty())
        out += fmt::format("\n{} step(s) in {} series; ", scan.steps.size(), scan.with_steps);
    const std::string set_aside =
        scan.set_aside_by_fdr ? fmt::format(" ({} of them with a step significant alone, set aside by Benjamini-Hochberg "
                                            "across the {} tested series)", scan.set_aside_by_fdr, scan.tested)
                              : "";
    out += fmt::format("no step in {} series{}; {} series too short to test (fewer than {} sessions)\n",
                       scan.tested - scan.with_steps, set_aside, scan.series - scan.tested, 2 * o.min_segment);
    return out;
}

std::string render_history_json(const HistoryScan& scan) {
    nlohmann::ordered_json doc;
    doc["method"] = {{"test", "binary segmentation, max between-segment sum of squares of log levels, "
                              "Student's t of the strongest split, Bonferroni over the splits"},
                     {"alpha", scan.options.alpha},
                     {"min_segment", scan.options.min_segment},
                     {"session_gap_s", scan.session_gap_s},
                     {"false_discovery_rate", "Benjamini-Hochberg across the tested series at alpha"},
                     {"confidence", scan.options.confidence}};
    doc["series"] = scan.series;
    doc["tested"] = scan.tested;
    doc["with_steps"] = scan.with_steps;
    doc["set_aside_by_fdr"] = scan.set_aside_by_fdr;
    doc["hosts"] = scan.hosts;
    doc["machines"] = scan.machines;
    doc["steps"] = nlohmann::ordered_json::array();
    for (const auto& s : scan.steps) doc["steps"].push_back(step_json(s));
    doc["unacknowledged_worsening"] = unacknowledged_worsening(scan).size();
    return doc.dump(2) + "\n";
}

std::string render_history_check(const std::vector<const HistoryStep*>& uncovered, const std::string& thresholds_dir) {
    if (uncovered.empty()) return "perfgate history --check: no worsening step without an acknowledgement\n";
    std::string out = fmt::format("perfgate history --check: {} worsening step(s) that no acknowledgement covers:\n",
                                  uncovered.size());
    for (const HistoryStep* s : uncovered)
        out += fmt::format("  {}: {} at {}, after {}\n", pair_title(*s), percent(s->step.change), run_text(s->first_after),
                           run_text(s->last_before));
    out += fmt::format(
        "Find the change between the last run before and the first run after each step. To accept one, commit an entry "
        "to {} (reviewed like code), e.g.:\n",
        (std::filesystem::path(thresholds_dir) / acknowledgements_file_name).string());
    for (const HistoryStep* s : uncovered) out += "  " + acknowledgement_example(*s) + "\n";
    return out;
}

}  // namespace perfgate::gates
