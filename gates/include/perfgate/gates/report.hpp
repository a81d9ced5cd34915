#pragma once
// What the gate decided: one PairReport per compared (or uncomparable) pair, each with one
// MetricCheck per metric. Nothing is dropped silently: every result row ends up in some pair.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/console.hpp"

namespace perfgate::gates {

// Listed from worst to best; the console table sorts by this order.
enum class Verdict {
    failed,          // FAIL: now (and not already FAIL in the baseline)
    regressed,       // dropped beyond the threshold (and significant when both sides have samples)
    inconclusive,    // the data can neither show a change beyond the floor in the bad direction nor rule
                     // one out: a drop beyond the threshold that is not significant (gate, compare), an
                     // interval that straddles the floor (perfgate ab)
    not_comparable,  // a baseline exists but cannot be compared; `reason` says why
    missing,         // in the baseline, not run now
    skipped,         // SKIP: now
    new_machine,     // the current run knows its machine, and the pair's history comes from other
                     // machines only: measured, not judged (docs/gate.md, "Machines")
    new_pair,        // no baseline reading at all
    improved,
    within_noise,       // judged, and no change beyond the noise, but the noise cannot bound the change
                        // within the floor: a change up to the stated MDE may go unseen
    skipped_as_before,  // SKIP now, as in the baseline: nothing measured, nothing lost
    unchanged,          // judged, and the change is bounded within the floor (95%)
};
// One vocabulary for every judgement perfgate makes: the gate, compare, ab (a model's verdict and
// each paired metric's) and the report page all speak it.
const char* to_string(Verdict v);  // "failed", "regressed", ..., "new machine", "new", "within noise", ...
bool fails_gate(Verdict v);        // failed and regressed
Verdict worse(Verdict a, Verdict b);      // the one listed first above
// Whether a pair's verdict asks for another launch of it before it is final (docs/gate.md,
// "Reruns"): inconclusive, to decide; regressed, to confirm, so that one slow launch of a runtime
// whose launches have a heavy tail cannot fail a run on its own.
bool wants_another_launch(Verdict v);
struct PairReport;
// The note that a pair took `p.reruns` reruns (of at most `bound`) and what it ended as.
std::string rerun_note(const PairReport& p, std::size_t bound);
std::optional<Color> color_of(Verdict v);  // red for a failure, yellow inconclusive, green improved

struct MetricCheck {
    std::string metric;  // decode_tok_s, prefill_tok_s
    Verdict verdict = Verdict::unchanged;
    std::vector<double> baseline_samples;
    std::vector<double> current_samples;
    std::optional<double> baseline_value;  // median of the samples
    std::optional<double> current_value;
    std::optional<double> change;          // current / baseline - 1
    double max_drop = 0;                   // threshold as applied (widened by noise for single readings)
    double alpha = 0;
    // The rule that decided: "history" (the pair's between-run noise from its own history),
    // "fallback" (too little history: an assumed noise and the within-run test), or the within-run
    // rules of an explicit baseline: "welch-t", "mann-whitney-u", "threshold-only".
    std::string test;
    std::optional<double> p_value;         // one-sided, in the direction of the change
    std::size_t history_runs = 0;          // runs of the pair's history behind the decision
    // The sessions those runs form (docs/gate.md, "Sessions"): the independent pieces of evidence.
    std::optional<std::size_t> history_sessions;
    std::size_t family = 0;                // decisions sharing the alpha of the run (0: not a history decision)
    // The chance, with nothing changed, that this decision's change is beyond its floor: small when
    // the floor alone keeps false alarms away (the error budget spends nothing on it).
    std::optional<double> floor_false_alarm;
    std::size_t reference_runs = 0;        // runs whose median is the reference level (reference.hpp)
    std::string reference;                 // which runs those are, and why the reference last moved
    std::optional<double> run_noise;       // between-run spread used (relative standard deviation)
    std::optional<double> min_detectable_effect;  // the drop (fraction) called regressed with `power`
    std::string threshold_source;
    std::string reason;
    // False for a reading reported but not judged (an optional metric one side lacks, such as peak
    // memory against a baseline recorded before perfgate measured it): it does not decide the
    // pair's verdict.
    bool judged = true;
};

struct PairReport {
    std::string model;             // canonical name
    std::string current_model;     // as written in the results
    std::string baseline_model;    // as written in the baseline (alias resolution may differ)
    std::string runtime;
    std::string baseline_runtime;  // differs from runtime for a cross-runtime (reference) comparison
    std::string host;
    std::string harness;
    std::optional<std::int64_t> batch;
    std::optional<std::int64_t> prompt_tokens;
    std::optional<std::int64_t> baseline_prompt_tokens;
    std::optional<std::int64_t> prompt_target_len;
    std::string current_status;    // "ok", "FAIL:bench", ...
    std::string baseline_status;
    std::string current_source;    // file:line of the first row
    std::string baseline_source;
    std::string current_date;
    std::string baseline_date;
    std::size_t current_rows = 0;  // repeated rows of the pair in one file are samples
    std::size_t baseline_rows = 0;
    std::size_t reruns = 0;        // extra launches taken to decide (inconclusive) or confirm (regressed): wants_another_launch
    Verdict verdict = Verdict::unchanged;  // worst of the metric checks, or the status verdict
    std::string reason;
    std::vector<MetricCheck> metrics;
    std::vector<std::string> warnings;     // superseded baseline, fingerprint change
};

struct GateReport {
    std::vector<PairReport> pairs;      // worst first
    std::vector<std::string> notes;     // facts about the run (thresholds used, baselines, ref)
    std::vector<std::string> warnings;  // the working tree edits thresholds/ or a baseline, ...
    std::string baseline_ref;
    // Set when the run compared nothing and that is not allowed (see EmptyRun): why the gate fails.
    std::string empty_run_failure;
    // Failures of the run as a whole, not of one pair: a baseline at the base ref that the change
    // removed (docs/gate.md, "Pull-request safety"). Any of them fails the gate.
    std::vector<std::string> run_failures;
    std::size_t count(Verdict v) const;
};

// What a run that compared nothing means: every pair new, skipped, missing or not comparable, or
// no pair at all (a header-only results file, an empty or wrong benchmarks folder, a changed
// workload). Without a policy such a run would pass with nothing checked.
enum class EmptyRun {
    fail,       // perfgate gate: exit 1 with the reason, unless --allow-empty
    allow,      // perfgate gate --allow-empty: passes, with a note
    first_run,  // the runner (per-pair gate, suite summary): passes when some pair is new or not
                // comparable (its row is the first of a changed workload: "first run: baseline
                // recorded"), or new on this machine ("new machine: no verdict"); fails when
                // nothing was recorded either (all skipped/missing)
};

// True when no pair was judged against a baseline reading: every verdict is new, new machine,
// skipped, missing or not comparable, or there are no pairs.
bool compared_nothing(const GateReport& report);

// Calls `edit` on every free text of the report: its notes, warnings and failures; each pair's
// sources, reason and warnings; each metric's reference, threshold source and reason. The one list
// of them, for a caller that rewrites a name everywhere (a scratch copy's path into the file it
// was converted from).
void for_each_text(GateReport& report, const std::function<void(std::string&)>& edit);

// Applies the policy to a finished report: a note, or `empty_run_failure`.
void apply_empty_run_policy(GateReport& report, EmptyRun policy);

// "1 pair regressed, 1 new pair, 3 pairs unchanged": the counts of the verdicts that occur, worst
// first ("no pairs" when there are none); the summary every format states.
std::string verdict_counts(const GateReport& report);

// Why the run as a whole fails: the empty-run failure and the run failures, in that order.
std::vector<std::string> run_failure_lines(const GateReport& report);

// True when nothing regressed or failed and the run is not an empty run that fails (nor has a run
// failure). (Bad input is
// no report: run_gate returns an Error instead.) cli/ turns this into exit 0 or 1.
bool passed(const GateReport& report);

// "compared 1 of 5 pairs with a baseline; not compared: 4 new machine (no history of theirs on
// this machine)" when some pair of the report was not compared with a baseline (new, new machine,
// skipped, missing, not comparable, failed); nullopt when every pair was (or there are none).
std::optional<std::string> compared_line(const GateReport& report);

// Sorts pairs worst first: verdict order, then the largest drop, then model name.
void sort_worst_first(std::vector<PairReport>& pairs);

}  // namespace perfgate::gates
