#include "perfgate/gates/gate.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/host_tag_rule.hpp"
#include "perfgate/core/metric.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/gates/acknowledgements.hpp"
#include "perfgate/gates/calendar.hpp"
#include "perfgate/gates/decision.hpp"
#include "perfgate/gates/reference.hpp"
#include "comparability.hpp"
#include "history.hpp"
#include "latest_run.hpp"
#include "machine_history.hpp"
#include "pair_verdicts.hpp"
#include "ref_rules.hpp"
#include "perfgate/gates/noise_model.hpp"
#include "perfgate/gates/thresholds.hpp"
#include "sources.hpp"
#include "warnings.hpp"

namespace perfgate::gates {
namespace {

using detail::describe_baseline;
using detail::describe_current;
using detail::describe_pair;
using detail::finish_pair_verdict;
using detail::status_metrics;

struct CurrentFile {
    RowContext context;
    const std::vector<ResultRow>* rows = nullptr;
    std::string identity;  // empty for in-memory rows
    std::vector<std::string> warnings;  // the reader's (an empty file of 0 bytes)
    std::vector<std::string> notes;     // which run of the file is judged
};

class Gate {
public:
    Gate(const GateOptions& options, detail::Sources sources) : options_(options), sources_(std::move(sources)) {}

    Expected<GateReport> run(const std::vector<CurrentFile>& current) {
        report_.baseline_ref = options_.baseline_ref.value_or("");
        for (auto& n : sources_.notes) report_.notes.push_back(n);
        if (auto st = load_catalog(); !st) return st.error();
        const std::set<std::string> result_identities = take_current(current);
        if (auto st = check_host_tags(); !st) return st.error();
        if (auto st = load_thresholds(); !st) return st.error();
        if (auto st = load_history(result_identities); !st) return st.error();
        if (auto st = judge_run(); !st) return st.error();
        if (options_.report_missing)
            if (auto st = add_missing(); !st) return st.error();
        note_unjudged_pairs();
        if (auto st = add_pull_request_findings(result_identities); !st) return st.error();
        sort_worst_first(report_.pairs);
        return std::move(report_);
    }

private:
    Status load_catalog() {
        if (!options_.catalog) return Ok{};
        auto c = read_model_catalog(*options_.catalog);
        if (!c) return c.error();
        catalog_ = std::move(*c);
        report_.notes.push_back(fmt::format("model aliases from {} ({} names)", *options_.catalog, catalog_.size()));
        return Ok{};
    }

    // The run's rows as pairs, with its files' warnings and notes; returns the identities of the
    // results files, which are never their own history.
    std::set<std::string> take_current(const std::vector<CurrentFile>& current) {
        std::set<std::string> result_identities;
        for (const auto& f : current) {
            auto groups = group_rows(*f.rows, f.context, catalog_);
            for (auto& g : groups) groups_.push_back(std::move(g));
            if (!f.identity.empty()) result_identities.insert(f.identity);
            report_.warnings.insert(report_.warnings.end(), f.warnings.begin(), f.warnings.end());
            report_.notes.insert(report_.notes.end(), f.notes.begin(), f.notes.end());
        }
        return result_identities;
    }

    // A host tag becomes part of a path (thresholds/<host>.json): checked by the probe's rule,
    // whichever source it came from.
    Status check_host_tags() const {
        for (const auto& g : groups_) {
            if (g.host.empty()) continue;
            const std::string source = !options_.host.empty()      ? std::string("--host")
                                       : !g.first().host.empty()  ? "the host column of " + g.source()
                                                                  : "the file name of " + g.first().source_file;
            if (auto bad = host_tag_problem(g.host, source)) return make_error(*bad);
        }
        return Ok{};
    }

    // The error budget is shared by the decisions the run makes, known once they are made: a
    // first pass counts them, a second judges with that count (judging is pure; files are
    // read once). An optional metric without a baseline reading is not a decision, so a
    // history from before it gates as it did.
    Status judge_run() {
        rule_ = options_.history_rule;
        auto pairs = judge_all();
        if (!pairs) return pairs.error();
        if (share_error_budget(*pairs)) {
            pairs = judge_all();
            if (!pairs) return pairs.error();
        }
        for (auto& p : *pairs) report_.pairs.push_back(std::move(p));
        return Ok{};
    }

    // Pairs that got no verdict of their own are said out loud, not only listed among the verdicts.
    void note_unjudged_pairs() {
        // Missing pairs do not fail a run without a baseline ref.
        if (const auto missing = report_.count(Verdict::missing); missing > 0 && !options_.baseline_ref)
            report_.warnings.push_back(fmt::format(
                "{} pair{} of the baseline {} not run now (listed as missing; they do not fail this run, but "
                "with --baseline-ref a pair ok in the baseline that is missing fails)",
                missing, missing == 1 ? "" : "s", missing == 1 ? "was" : "were"));

        if (const auto n = report_.count(Verdict::new_machine); n > 0)
            report_.notes.push_back(fmt::format(
                "new machine: no verdict for {} (their history on this host tag comes from other machines); record "
                "a baseline on this machine (`cmake --workflow --preset cpu-baseline` on a CPU host) or use "
                "`perfgate ab`",
                counted(n, "pair")));
    }

    // At a base ref: working-tree edits the gate ignored, and baselines the change removed.
    Status add_pull_request_findings(const std::set<std::string>& result_identities) {
        auto pr = sources_.pull_request_warnings(result_identities);
        if (!pr) return pr.error();
        for (auto& w : pr->warnings) report_.warnings.push_back(std::move(w));
        for (auto& f : pr->failures) report_.run_failures.push_back(std::move(f));
        return Ok{};
    }

    Status load_thresholds() {
        auto base = sources_.threshold_text("default.json");
        if (!base) return base.error();
        ThresholdFile defaults;
        if (*base) {
            auto parsed = parse_threshold_file(**base, sources_.threshold_display("default.json"));
            if (!parsed) return parsed.error();
            defaults = std::move(*parsed);
        } else {
            defaults = builtin_default_thresholds();
            report_.notes.push_back("no " + sources_.threshold_display("default.json") +
                                    "; built-in defaults (floors: decode 5%, prefill 10%; alpha 0.01; run_noise 5%)");
        }
        if (auto st = load_acknowledgements(); !st) return st.error();
        std::set<std::string> hosts;
        for (const auto& g : groups_) hosts.insert(g.host);
        for (const auto& host : hosts) {
            ThresholdSet set;
            set.add_layer(defaults);
            const std::string file = host + ".json";
            auto text = host.empty() ? Expected<std::optional<std::string>>(std::optional<std::string>{})
                                     : sources_.threshold_text(file);
            if (!text) return text.error();
            if (*text) {
                auto parsed = parse_threshold_file(**text, sources_.threshold_display(file));
                if (!parsed) return parsed.error();
                set.add_layer(std::move(*parsed));
                report_.notes.push_back(fmt::format("host {}: thresholds from {} over {}", host,
                                                    sources_.threshold_display(file), defaults.name));
            } else {
                report_.notes.push_back(fmt::format(
                    "host {} is uncalibrated: no {}, so the defaults of {} apply; pairs with fewer than {} runs of "
                    "history use the fallback rule (perfgate calibrate --from-history writes the file)",
                    host.empty() ? "(unknown)" : host, sources_.threshold_display(file), defaults.name,
                    options_.history_rule.min_runs));
            }
            thresholds_.emplace(host, std::move(set));
        }
        return Ok{};
    }

    Status load_acknowledgements() {
        const std::string name(acknowledgements_file_name);
        auto text = sources_.threshold_text(name);
        if (!text) return text.error();
        if (!*text) return Ok{};
        auto parsed = parse_acknowledgements(**text, sources_.threshold_display(name));
        if (!parsed) return parsed.error();
        acknowledgements_ = std::move(*parsed);
        if (!acknowledgements_.empty())
            report_.notes.push_back(fmt::format("{} from {}", counted(acknowledgements_.size(), "acknowledged change"),
                                                sources_.threshold_display(name)));
        return Ok{};
    }

    Status load_history(const std::set<std::string>& result_identities) {
        std::set<std::string> wanted;
        for (const auto& g : groups_) {
            wanted.insert(g.series + '\x1f' + g.host);
            wanted.insert(g.runtime + '\x1f' + g.host);
        }
        if (options_.baseline) {
            auto b = sources_.baseline_file(*options_.baseline);
            if (!b) return b.error();
            explicit_ = std::make_unique<HistoryFile>(std::move(*b));
            if (auto st = BenchmarkHistory::load(*explicit_, catalog_); !st) return st.error();
            wanted.insert(explicit_->name.series + '\x1f' + explicit_->name.host);
            report_.notes.push_back("baseline given: " + explicit_->display_path);
        }
        std::set<std::string> result_names;
        for (const auto& id : result_identities) result_names.insert(id.substr(id.find_last_of('/') + 1));
        if (auto st = sources_.add_history(history_, wanted, result_names); !st) return st.error();
        std::unordered_set<std::string> exclude(result_identities.begin(), result_identities.end());
        history_.finish(exclude);
        return Ok{};
    }

    // Finds the baseline group of `g`: the explicit baseline, or the newest earlier file of the
    // same series (backend or runtime) and host that has a reading of the pair on this machine
    // (when the run knows its machine; readings of other machines go to `others`).
    Expected<std::pair<HistoryFile*, const SampleGroup*>> find_baseline(const SampleGroup& g,
                                                                       const std::vector<std::string>& spellings,
                                                                       detail::OtherMachines& others) {
        if (explicit_) {
            const SampleGroup* b = match_in_file(*explicit_, g, false);
            if (!b) b = match_in_file(*explicit_, g, true);
            return std::pair<HistoryFile*, const SampleGroup*>{explicit_.get(), b};
        }
        std::pair<HistoryFile*, const SampleGroup*> found{nullptr, nullptr};
        auto st = for_each_history_group(g, spellings, g.date(), [&](HistoryFile* f, const SampleGroup* any) {
            if (const SampleGroup* b = machines_.rows_of(any, detail::machine_of(g))) {
                found = {f, b};
                return true;
            }
            if (any) others.add(*any);
            return false;
        });
        if (!st) return st.error();
        return found;
    }

    // Visits the pair's group (nullptr when the file has none) in each history file of its series
    // and host dated on or before `date`, newest first, loading the files that mention the model;
    // `visit(file, group)` returns true to stop.
    template <typename Visit>
    Status for_each_history_group(const SampleGroup& g, const std::vector<std::string>& spellings,
                                  const std::string& date, Visit visit) {
        for (const auto& s : series_of(g))
            for (HistoryFile* f : history_.candidates(s, g.host, date)) {
                auto mentions = BenchmarkHistory::mentions_any(*f, spellings);
                if (!mentions) return mentions.error();
                if (!*mentions) continue;
                if (auto st = BenchmarkHistory::load(*f, catalog_); !st) return st.error();
                if (visit(f, match_in_file(*f, g, false))) return Ok{};
            }
        return Ok{};
    }

    // Every other machine's readings of the pair on this host (rows of the current machine left
    // out), from all its history files.
    Expected<detail::OtherMachines> other_machines(const SampleGroup& g, const std::vector<std::string>& spellings) {
        detail::OtherMachines others;
        const std::string machine = detail::machine_of(g);
        auto st = for_each_history_group(g, spellings, g.date(), [&](HistoryFile*, const SampleGroup* any) {
            if (any) others.add(*any, machine);
            return false;
        });
        if (!st) return st.error();
        return others;
    }

    // The pair's reference level among `levels` (oldest first), with the acknowledgements that
    // apply to it on this machine.
    Reference reference_of(const SampleGroup& g, const std::string& metric, const std::vector<RunLevel>& levels,
                           const Threshold& t) const {
        const auto entries = acknowledgements_.of({g.host, detail::machine_id_of(g), g.runtime, g.raw_model, metric});
        const std::string now = !g.first().timestamp.empty() ? g.first().timestamp : g.date();
        return find_reference(levels, acknowledged_starts(levels, entries, now), perfgate::metric(metric), t.max_drop,
                              rule_.reference);
    }

    Expected<std::vector<PairReport>> judge_all() {
        std::vector<PairReport> out;
        for (const auto& g : groups_) {
            auto pair = judge(g);
            if (!pair) return pair.error();
            out.push_back(std::move(*pair));
        }
        return out;
    }

    // Shares the run's alpha among its noise-limited decisions (metrics judged by the history or
    // fallback rule; with options_.family_size, as many more unseen as the suite makes) by the
    // union bound: a decision whose floor alone keeps its false-alarm chance below alpha / m
    // spends that chance; the rest of alpha is split evenly among the others. So an unchanged run
    // fails with probability at most alpha, and pairs whose floor protects them cost nothing.
    // Sets rule_ and returns whether the decisions must be made again.
    bool share_error_budget(const std::vector<PairReport>& pairs) {
        std::vector<const MetricCheck*> made;
        double alpha = 1.0;
        for (const auto& p : pairs)
            for (const auto& m : p.metrics)
                if (m.judged && m.floor_false_alarm &&
                    (m.test == "history" || m.test == "fallback" || m.test == "machines")) {
                    made.push_back(&m);
                    alpha = std::min(alpha, m.alpha);
                }
        const std::size_t family = std::max(options_.family_size, made.size());
        if (family <= 1) return false;
        double spent = 0;
        std::size_t covered = 0;
        for (const MetricCheck* m : made)
            if (*m->floor_false_alarm <= alpha / static_cast<double>(family)) {
                spent += *m->floor_false_alarm;
                ++covered;
            }
        const double per = (alpha - spent) / static_cast<double>(std::max<std::size_t>(family - covered, 1));
        rule_.family = family;
        rule_.alpha_share = per / alpha;
        return true;
    }

    // The series a pair's baselines may be filed under: its backend, and its runtime.
    static std::vector<std::string> series_of(const SampleGroup& g) {
        std::vector<std::string> series{g.series};
        if (g.runtime != g.series && !g.runtime.empty()) series.push_back(g.runtime);
        return series;
    }

    // At a base ref, a pair whose suite workload the change altered (GateOptions::workload_changes)
    // fails whatever its readings say: another workload is no evidence about this one.
    std::optional<std::string> workload_change(const SampleGroup& g) const {
        if (!options_.baseline_ref) return std::nullopt;
        auto it = options_.workload_changes.find({g.runtime, g.raw_model});
        if (it == options_.workload_changes.end()) return std::nullopt;
        return fmt::format("the workload changed since {}: {}; its readings cannot be compared with the baseline's, so "
                           "the change is not measured (a workload change fails its own pull request and is recorded "
                           "as a baseline once merged)",
                           *options_.baseline_ref, it->second);
    }

    // The pair's history, oldest first, ending with the baseline group `b`: the same pair in the
    // baseline file and in older files of the same series and host (or `b` alone for an explicit
    // baseline). Older files are read only until the history holds the reference horizon's runs.
    Expected<std::vector<const SampleGroup*>> history_groups(const SampleGroup& g, HistoryFile* baseline_file,
                                                             const SampleGroup* b,
                                                             const std::vector<std::string>& spellings) {
        std::vector<const SampleGroup*> newest_first{b};
        if (explicit_) return newest_first;
        const std::string& headline = headline_metric(g);
        std::size_t runs = run_levels(*b, headline).size();
        std::set<HistoryFile*> seen{baseline_file};
        if (runs >= options_.history_rule.horizon) return newest_first;
        auto st = for_each_history_group(g, spellings, baseline_file->name.date, [&](HistoryFile* f, const SampleGroup* any) {
            if (!seen.insert(f).second) return false;
            const SampleGroup* h = machines_.rows_of(any, detail::machine_of(g));
            if (!h || h->ok_rows.empty()) return false;
            // A run of another prompt length or decode budget is another workload, and one with
            // other runtime flags (llama-bench -t 2 before the CPU thread default) another
            // method: neither belongs to the baseline's noise.
            std::vector<std::string> ignored;  // warnings of a history run are not this run's
            if (detail::not_comparable_reason(*h, g, false, options_, ignored).any()) return false;
            if (h->first().flags != b->first().flags) return false;
            newest_first.push_back(h);
            runs += run_levels(*h, headline).size();
            return runs >= options_.history_rule.horizon;
        });
        if (!st) return st.error();
        return std::vector<const SampleGroup*>(newest_first.rbegin(), newest_first.rend());
    }

    // The first date of the machines rule's window before a run of `date` ("" for no window, or a
    // run without a valid date).
    std::string machines_window_start(const std::string& date) const {
        const long window = options_.history_rule.machines_window_days;
        const auto day = day_number(date);
        return window > 0 && day ? iso_date_of_day(*day - window) : std::string();
    }

    // A pair whose history comes only from other machines, judged by how far machines land from
    // each other (docs/gate.md, "Machines") when at least kMinMachinesForSpread of them have runs
    // of the same workload and flags; nullopt otherwise, and the pair is `new machine`.
    std::optional<PairReport> judge_across_machines(PairReport p, const SampleGroup& g,
                                                    const detail::OtherMachines& others) {
        if (workload_change(g)) return std::nullopt;
        std::vector<std::string> ignored;  // warnings of a history run are not this run's
        const auto comparable = [&](const SampleGroup& h) {
            return !detail::not_comparable_reason(h, g, false, options_, ignored).any() && h.first().flags == g.first().flags;
        };
        const ThresholdSet& set = thresholds_.at(g.host);
        std::size_t machines = 0;
        std::set<std::string> used;
        const std::string& headline = headline_metric(g);
        const std::string when = !g.first().timestamp.empty() ? g.first().timestamp : g.date();
        const std::string window_start = machines_window_start(g.date());
        for (const auto& metric : gated_metrics()) {
            const auto now = g.samples(metric);
            if (now.empty() && metric != headline) continue;  // a metric the run does not measure
            // An accepted change moves every machine's level it names: the machines' centre is read
            // from their runs since (a -8% accepted on the fleet made every new machine regressed
            // against the old level).
            const auto level_from = [&](const std::string& machine) {
                std::string from = window_start;
                for (const Acknowledgement* a : acknowledgements_.of({g.host, machine, g.runtime, g.raw_model, metric}))
                    if (a->from <= when) from = std::max(from, a->from);
                return from;
            };
            const auto levels = detail::other_machine_levels(others, machines_, metric,
                                                             options_.history_rule.noise_runs, comparable, level_from);
            const auto spread = machine_spread(levels);
            if (spread)
                for (const auto& m : levels) used.insert(m.machine);
            if (!spread && (perfgate::metric(metric).required || metric == headline)) return std::nullopt;
            if (!spread || now.empty()) {
                if (!now.empty()) p.metrics.push_back(unjudged_metric(metric, {}, now));
                continue;
            }
            machines = std::max(machines, spread->machines);
            p.metrics.push_back(decide_metric_across_machines(metric, *spread, now,
                                                              set.lookup(metric, g.model, g.runtime), rule_));
        }
        finish_pair_verdict(p);
        p.baseline_source = fmt::format("{} other machines of host {} ({})", machines, g.host, fmt::join(used, ", "));
        return p;
    }


    // Finds the pair's baseline (loading files as needed) and judges the pair against it.
    Expected<PairReport> judge(const SampleGroup& g) {
        PairReport p = describe_current(g);
        const auto spellings = catalog_.spellings(g.raw_model);
        detail::OtherMachines others;
        auto found = find_baseline(g, spellings, others);
        if (!found) return found.error();
        auto [file, b] = *found;
        if (!b) {
            if (auto st = judge_without_baseline(p, g, spellings, others); !st) return st.error();
            return p;
        }
        matched_.insert(b);
        matched_.insert(machines_.original(b));
        baseline_files_.insert(file);
        describe_baseline(p, *b);
        if (auto st = judge_against_baseline(p, g, *file, *b, spellings); !st) return st.error();
        if (auto st = add_baseline_warnings(p, g, *file, *b, spellings); !st) return st.error();
        return p;
    }

    // A pair without a baseline reading on this machine: new machine, new, or its status now.
    Status judge_without_baseline(PairReport& p, const SampleGroup& g, const std::vector<std::string>& spellings,
                                  const detail::OtherMachines& others) {
        const StatusToken now{g.status()};
        if (now.ok() && others.ids.size() >= kMinMachinesForSpread && !explicit_)
            if (auto across = judge_across_machines(p, g, others)) {
                p = std::move(*across);
                return Ok{};
            }
        if (!others.empty() && now.ok()) {
            judge_new_machine(p, g, others);
            return Ok{};
        }
        const std::string reason = no_baseline_reason(g, others);
        if (now.is_fail()) status_metrics(p, Verdict::failed, now.text + " now, " + reason, &g);
        else if (now.is_skip()) status_metrics(p, Verdict::skipped, now.text + " now, " + reason, &g);
        else if (auto changed = workload_change(g)) status_metrics(p, Verdict::failed, *changed, &g);
        else return judge_first_reading(p, g, spellings, reason);
        return Ok{};
    }

    // A pair measured ok now whose readings on this host come from other machines only.
    void judge_new_machine(PairReport& p, const SampleGroup& g, const detail::OtherMachines& others) const {
        const std::string reason = detail::new_machine_reason(g, detail::machine_of(g), others);
        // At a base ref a pull request's run must be compared with the base or fail (issue 26
        // item 4): a machine without history there gives no verdict, so the pair fails.
        if (options_.baseline_ref && !explicit_)
            status_metrics(p, Verdict::failed,
                           reason + "; at base ref " + *options_.baseline_ref +
                               " a pull request's pair must be compared on its own machine "
                               "(run `perfgate ab` on one machine instead)",
                           &g);
        else status_metrics(p, Verdict::new_machine, reason, &g);
    }

    // Where the gate looked for an earlier reading of the pair, and found none.
    std::string no_baseline_reason(const SampleGroup& g, const detail::OtherMachines& others) const {
        const std::string where =
            explicit_ ? explicit_->display_path
                      : fmt::format("{} ({} files of {} on host {})",
                                    options_.baseline_ref ? *options_.baseline_ref + ":" + options_.benchmarks_dir
                                                          : options_.benchmarks_dir,
                                    g.series, g.series, g.host);
        if (!others.empty())
            return fmt::format("no earlier reading of {} ({}, {}) on machine {} in {}; its readings there come from "
                               "other machines",
                               g.raw_model, g.runtime, g.harness, detail::machine_of(g), where);
        return fmt::format("no earlier reading of {} ({}, {}) in {}", g.raw_model, g.runtime, g.harness, where);
    }

    // A pair's first reading is new. At a base ref "new" must mean a pair the change adds on a
    // host with history, not a host tag or a clock that the change switched away from every
    // baseline.
    Status judge_first_reading(PairReport& p, const SampleGroup& g, const std::vector<std::string>& spellings,
                               const std::string& reason) {
        if (options_.baseline_ref && !explicit_) {
            auto unknown = detail::unknown_at_ref(history_, g, series_of(g), spellings, catalog_, *options_.baseline_ref);
            if (!unknown) return unknown.error();
            if (*unknown) {
                status_metrics(p, Verdict::failed, **unknown, &g);
                return Ok{};
            }
        }
        status_metrics(p, Verdict::new_pair, reason, &g);
        return Ok{};
    }

    // A pair with a baseline reading: a status verdict when either side has no reading, the
    // workload changed or the two cannot be compared; else each metric judged against the history.
    Status judge_against_baseline(PairReport& p, const SampleGroup& g, HistoryFile& file, const SampleGroup& b,
                                  const std::vector<std::string>& spellings) {
        const StatusToken now{g.status()}, then{b.status()};
        if (now.is_fail()) {
            judge_failed_now(p, g, b);
        } else if (now.is_skip()) {
            judge_skipped_now(p, g, b);
        } else if (!then.ok()) {
            status_metrics(p, Verdict::new_pair,
                           fmt::format("no baseline reading: the baseline row is {} ({})", then.text, b.source()), &g, &b);
        } else if (auto changed = workload_change(g)) {
            status_metrics(p, Verdict::failed, *changed, &g, &b);
        } else {
            const auto why = detail::not_comparable_reason(b, g, b.runtime != g.runtime, options_, p.warnings);
            if (why.pair) status_metrics(p, Verdict::not_comparable, *why.pair, &g, &b);
            else if (auto st = judge_metrics(p, g, file, b, why.decode, spellings); !st) return st;
        }
        if (options_.baseline_ref) detail::fail_not_comparable_at_ref(p, *options_.baseline_ref);
        return Ok{};
    }

    // A FAIL now is a known failure when the baseline failed too, else a failed pair.
    static void judge_failed_now(PairReport& p, const SampleGroup& g, const SampleGroup& b) {
        const StatusToken now{g.status()}, then{b.status()};
        if (then.is_fail())
            status_metrics(p, Verdict::unchanged,
                           fmt::format("{} now, as in the baseline ({}): a known failure", now.text, then.text), &g, &b);
        else if (then.ok())
            status_metrics(p, Verdict::failed,
                           fmt::format("hard regression: passed in the baseline ({}), {} now", b.source(), now.text), &g,
                           &b);
        else
            status_metrics(p, Verdict::failed, fmt::format("{} now; the baseline was {}", now.text, then.text), &g, &b);
    }

    // A SKIP now: as before when the baseline skipped too; a pair measured ok before may not drop out.
    void judge_skipped_now(PairReport& p, const SampleGroup& g, const SampleGroup& b) {
        const StatusToken now{g.status()}, then{b.status()};
        const std::string what = fmt::format("{} now; the baseline was {}", now.text, then.text);
        if (then.is_skip())
            status_metrics(p, Verdict::skipped_as_before, fmt::format("{} now, as in the baseline", now.text), &g, &b);
        else if (then.ok())
            guard_dropped_pair(p, Verdict::skipped, what + fmt::format(" ({})", b.source()), g.runtime, g.raw_model, &g,
                               &b);
        else
            status_metrics(p, Verdict::skipped, what, &g, &b);
    }

    // Reads the pair's history and judges each metric against it; `decode_not_comparable` says why
    // the decode rate alone cannot be compared.
    Status judge_metrics(PairReport& p, const SampleGroup& g, HistoryFile& file, const SampleGroup& b,
                         const std::optional<std::string>& decode_not_comparable,
                         const std::vector<std::string>& spellings) {
        const ThresholdSet& set = thresholds_.at(g.host);
        auto history = history_groups(g, &file, &b, spellings);
        if (!history) return history.error();
        const std::string& headline = headline_metric(g);
        for (const auto& metric : gated_metrics()) {
            const auto before = b.samples(metric), now = g.samples(metric);
            // A metric that neither side measures (a runtime that reports decode only, a counted
            // pair's rates) is not a comparison at all; one side without it is still reported as not
            // comparable.
            if (before.empty() && now.empty() && metric != headline) continue;
            const bool required = perfgate::metric(metric).required || metric == headline;
            if (!required && (before.empty() || now.empty())) {
                p.metrics.push_back(unjudged_metric(metric, before, now));
                continue;
            }
            const auto levels = history_levels(*history, metric, g, p.warnings);
            if (decode_not_comparable && metric == "decode_tok_s") {
                p.metrics.push_back(detail::not_comparable_metric(metric, *decode_not_comparable, before, now));
                continue;
            }
            p.metrics.push_back(judge_metric(g, metric, *history, levels, set.lookup(metric, g.model, g.runtime), now));
        }
        finish_pair_verdict(p);
        return judge_young_machine(p, g, spellings);
    }

    // A machine whose own history is too young for the history rule (its headline metric fell to
    // the fallback rule: fewer than min_runs sessions, and one sitting of 38 runs is one session)
    // is judged across the other machines instead, when at least kMinMachinesForSpread of them have
    // runs (docs/gate.md, "Machines"). The fallback's assumed spread made such a machine blinder
    // than an unseen one: on an H200 with 38 unchanged runs of one sitting, 0 of 60 runs 9% slower
    // in decode failed; judged across the 8 other machines, 60 of 60 did.
    Status judge_young_machine(PairReport& p, const SampleGroup& g, const std::vector<std::string>& spellings) {
        const std::string& headline = headline_metric(g);
        const auto own = std::find_if(p.metrics.begin(), p.metrics.end(),
                                      [&](const MetricCheck& m) { return m.metric == headline; });
        if (explicit_ || own == p.metrics.end() || own->test != "fallback" || detail::machine_of(g).empty())
            return Ok{};
        const std::size_t sessions = own->history_sessions.value_or(own->history_runs);
        auto others = other_machines(g, spellings);
        if (!others) return others.error();
        if (others->ids.size() < kMinMachinesForSpread) return Ok{};
        PairReport fresh = p;
        fresh.metrics.clear();
        auto across = judge_across_machines(std::move(fresh), g, *others);
        if (!across) return Ok{};
        const std::string why = fmt::format("this machine's own history ({}) is too short for its own rule",
                                            counted(sessions, "session"));
        for (auto& m : across->metrics)
            if (m.test == "machines") m.reason += "; " + why;
        finish_pair_verdict(*across);
        across->baseline_source += " (" + why + ")";
        p = std::move(*across);
        return Ok{};
    }

    // The pair's runs of `metric` in its history, oldest first, the latest `horizon` of them. One
    // run is one piece of evidence, however many history files hold its rows (a copied or merged
    // file): counted twice, it narrowed the noise and flipped a -7% from inconclusive to regressed
    // (issue 26 item 16).
    std::vector<RunLevel> history_levels(const std::vector<const SampleGroup*>& history, const std::string& metric,
                                         const SampleGroup& g, std::vector<std::string>& warnings) const {
        std::vector<RunLevel> levels;
        std::set<std::string> seen;
        std::vector<std::string> repeated;
        for (const SampleGroup* h : history)
            for (auto& run : run_levels(*h, metric)) {
                if (seen.insert(run.run).second) levels.push_back(std::move(run));
                else repeated.push_back(run.run);
            }
        if (!repeated.empty() && metric == headline_metric(g))
            warnings.push_back(fmt::format("run {} appears in more than one history file of {} {}; each run is counted "
                                           "once",
                                           fmt::join(repeated, ", "), g.runtime, g.raw_model));
        const std::size_t horizon = options_.history_rule.horizon;
        if (levels.size() > horizon) levels.erase(levels.begin(), levels.end() - static_cast<long>(horizon));
        assign_sessions(levels, options_.history_rule.session_gap_s);
        return levels;
    }

    // One metric against the pair's reference level among `levels`, with its history's noise.
    MetricCheck judge_metric(const SampleGroup& g, const std::string& metric,
                             const std::vector<const SampleGroup*>& history, const std::vector<RunLevel>& levels,
                             const Threshold& t, const std::vector<double>& now) const {
        const Reference ref = reference_of(g, metric, levels, t);
        return decide_metric_history(metric, levels, ref, reference_samples(history, metric, levels, ref), now,
                                     g.ok_rows.size(), t, options_.test, rule_);
    }

    // The samples of the reference's runs, from whichever history files hold them.
    static std::vector<double> reference_samples(const std::vector<const SampleGroup*>& history,
                                                 const std::string& metric, const std::vector<RunLevel>& levels,
                                                 const Reference& ref) {
        std::vector<double> samples;
        for (std::size_t i = ref.first; i < ref.first + ref.count; ++i)
            for (const SampleGroup* h : history) {
                const auto s = run_samples(*h, metric, levels[i].run);
                samples.insert(samples.end(), s.begin(), s.end());
            }
        return samples;
    }

    // What the verdict alone does not say: a cross-runtime comparison, a changed machine, a newer
    // reading than the baseline.
    Status add_baseline_warnings(PairReport& p, const SampleGroup& g, const HistoryFile& file, const SampleGroup& b,
                                 const std::vector<std::string>& spellings) {
        if (b.runtime != g.runtime)
            p.warnings.push_back(fmt::format("cross-runtime comparison: {} against {} on host {}", g.runtime, b.runtime,
                                             g.host));
        if (auto fp = detail::fingerprint_change(b, g)) p.warnings.push_back(*fp);
        // With a machine id the baseline is this machine's newest reading: another machine's newer
        // reading supersedes nothing.
        if (StatusToken{b.status()}.ok() && StatusToken{g.status()}.ok() && detail::machine_of(g).empty()) {
            auto sup = detail::superseded_baseline(history_, file, b, g.date(), spellings, catalog_);
            if (!sup) return sup.error();
            if (*sup) p.warnings.push_back(**sup);
        }
        return Ok{};
    }

    // Baseline pairs not run now: from the explicit baseline, or from the newest full sweep (not a
    // "_single_" file) of each series, host and harness that this run covers.
    Status add_missing() {
        std::set<HistoryFile*> primaries;
        if (explicit_) {
            primaries.insert(explicit_.get());
        } else {
            std::set<std::string> seen;
            for (const auto& g : groups_) {
                if (!seen.insert(g.series + '\x1f' + g.host + '\x1f' + g.harness).second) continue;
                for (HistoryFile* f : history_.candidates(g.series, g.host, g.date())) {
                    if (f->name.harness != g.harness || !f->name.single_model.empty()) continue;
                    if (auto st = BenchmarkHistory::load(*f, catalog_); !st) return st.error();
                    primaries.insert(f);
                    break;
                }
            }
        }
        // A baseline pair counts as run when this run has the same model under the same runtime: a
        // change that renames the runtime (llama-bench -> llama-bench-x) must not excuse the pairs
        // the history holds under the old name (they are missing, and fail at a base ref).
        const auto run_key = [](const SampleGroup& g) { return g.model_key() + '\x1f' + g.runtime; };
        std::set<std::string> run_keys;
        for (const auto& g : groups_) run_keys.insert(run_key(g));
        // A run that knows its machine misses only what this machine ran before.
        std::string machine;
        for (const auto& g : groups_)
            if (machine.empty()) machine = detail::machine_of(g);
        for (HistoryFile* f : primaries) {
            for (const auto& b : f->groups) {
                if (matched_.count(&b) || run_keys.count(run_key(b))) continue;
                if (!machines_.rows_of(&b, machine)) continue;
                PairReport p = describe_pair(b);
                describe_baseline(p, b);
                const std::string what = fmt::format("in the baseline ({}, {}), not run now", b.source(), b.status());
                if (StatusToken{b.status()}.ok())
                    guard_dropped_pair(p, Verdict::missing, what, b.runtime, b.raw_model, nullptr, &b);
                else
                    status_metrics(p, Verdict::missing, what, nullptr, &b);
                report_.pairs.push_back(std::move(p));
            }
        }
        return Ok{};
    }

    // A pair measured ok in the baseline that is skipped or missing now. Without a baseline ref it
    // keeps `verdict` (listed, not failing: a local run may well cover part of a suite). With one,
    // the change under test must not be able to take the pair out of its own gate: it fails
    // unless the suite at the ref does not run the pair either. A pair measured ok in the baseline
    // on this host did fit there, so "the suite at the ref would skip it too" needs no memory
    // estimate here; the pair list is what a change can rename.
    void guard_dropped_pair(PairReport& p, Verdict verdict, const std::string& what, const std::string& runtime,
                            const std::string& model, const SampleGroup* now, const SampleGroup* base) {
        if (!options_.baseline_ref) return status_metrics(p, verdict, what, now, base);
        const std::string& ref = *options_.baseline_ref;
        if (options_.pairs_at_ref && !options_.pairs_at_ref->count({runtime, model}))
            return status_metrics(p, verdict,
                                  what + fmt::format("; the suite at {} does not run {}/{} either", ref, runtime, model),
                                  now, base);
        status_metrics(p, Verdict::failed,
                       what + fmt::format(": {} {}/{} at {}, so a change cannot leave it out of the gate (renamed, "
                                          "removed or skipped pairs fail until the suite at the base ref drops them)",
                                          options_.pairs_at_ref ? "the suite runs" : "the baseline has", runtime, model,
                                          ref),
                       now, base);
    }

    const GateOptions& options_;
    detail::Sources sources_;
    GateReport report_;
    ModelCatalog catalog_;
    std::vector<SampleGroup> groups_;
    std::map<std::string, ThresholdSet> thresholds_;
    Acknowledgements acknowledgements_;
    HistoryRule rule_;  // options_.history_rule with the run's error budget
    BenchmarkHistory history_;
    std::unique_ptr<HistoryFile> explicit_;
    std::set<const SampleGroup*> matched_;
    detail::MachineFilter machines_;
    std::set<HistoryFile*> baseline_files_;
};

Expected<GateReport> gate_current(const std::vector<CurrentFile>& current, const GateOptions& options) {
    if (!options.host.empty())
        if (auto bad = host_tag_problem(options.host, "--host")) return make_error(*bad);
    try {
        auto sources = detail::Sources::open(options);
        if (!sources) return sources.error();
        Gate gate(options, std::move(*sources));
        auto report = gate.run(current);
        if (report) apply_empty_run_policy(*report, options.empty_run);
        return report;
    } catch (const std::exception& e) {
        // Bad input is an Error value by then; an exception here is a bug (statistics.hpp says
        // which), reported as an error instead of terminating the process.
        return make_error(std::string("internal error in the gate (a bug, please report it): ") + e.what());
    }
}

}  // namespace

Expected<GateReport> run_gate(const GateOptions& options) {
    if (options.results.empty()) return make_error("perfgate gate: at least one --results CSV is needed");
    std::vector<ResultFile> files;
    files.reserve(options.results.size());
    for (const auto& path : options.results) {
        auto f = read_results_csv(path);
        if (!f) return f.error();
        files.push_back(std::move(*f));
    }
    std::vector<CurrentFile> current;
    for (std::size_t i = 0; i < files.size(); ++i) {
        CurrentFile c;
        if (auto bad = impossible_date_in_name(options.results[i])) return make_error(*bad);
        c.context.file_name = parse_benchmark_file_name(options.results[i]);
        c.context.host_override = options.host;
        if (!options.exclude_run_id.empty()) {
            // Judging one run inside a day's file: its rows are the current ones, and the file's
            // other runs stay available as baselines.
            std::erase_if(files[i].rows, [&](const ResultRow& r) { return r.run_id != options.exclude_run_id; });
        } else {
            c.identity = detail::identity_of(options.results[i]);
            if (auto note = detail::keep_latest_run(files[i].rows, options.results[i]); !note.empty())
                c.notes.push_back(std::move(note));
        }
        c.rows = &files[i].rows;
        c.warnings = files[i].warnings;
        current.push_back(c);
    }
    return gate_current(current, options);
}

Expected<GateReport> gate_rows(const std::vector<ResultRow>& rows, const GateOptions& options) {
    CurrentFile c;
    c.context.host_override = options.host;
    c.rows = &rows;
    return gate_current({c}, options);
}

}  // namespace perfgate::gates
