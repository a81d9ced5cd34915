#include "perfgate/gates/report.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/core/text.hpp"

namespace perfgate::gates {

const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::failed: return "failed";
        case Verdict::regressed: return "regressed";
        case Verdict::inconclusive: return "inconclusive";
        case Verdict::not_comparable: return "not comparable";
        case Verdict::missing: return "missing";
        case Verdict::skipped: return "skipped";
        case Verdict::new_machine: return "new machine";
        case Verdict::new_pair: return "new";
        case Verdict::improved: return "improved";
        case Verdict::within_noise: return "within noise";
        case Verdict::skipped_as_before: return "skipped as before";
        case Verdict::unchanged: return "unchanged";
    }
    return "?";
}

bool fails_gate(Verdict v) { return v == Verdict::failed || v == Verdict::regressed; }

// The enum lists the verdicts worst first.
Verdict worse(Verdict a, Verdict b) { return std::min(a, b); }

bool wants_another_launch(Verdict v) { return v == Verdict::inconclusive || v == Verdict::regressed; }

std::string rerun_note(const PairReport& p, std::size_t bound) {
    return fmt::format("{}/{}: {} rerun(s) to decide or confirm its verdict (bound {}), final verdict {}", p.runtime,
                       p.current_model, p.reruns, bound, to_string(p.verdict));
}

std::optional<Color> color_of(Verdict v) {
    switch (v) {
        case Verdict::failed:
        case Verdict::regressed: return Color::red;
        case Verdict::inconclusive: return Color::yellow;
        case Verdict::improved: return Color::green;
        default: return std::nullopt;
    }
}

std::size_t GateReport::count(Verdict v) const {
    return static_cast<std::size_t>(
        std::count_if(pairs.begin(), pairs.end(), [v](const PairReport& p) { return p.verdict == v; }));
}

void for_each_text(GateReport& report, const std::function<void(std::string&)>& edit) {
    for (auto* list : {&report.notes, &report.warnings, &report.run_failures})
        for (auto& text : *list) edit(text);
    edit(report.empty_run_failure);
    for (auto& pair : report.pairs) {
        for (auto* text : {&pair.current_source, &pair.baseline_source, &pair.reason}) edit(*text);
        for (auto& w : pair.warnings) edit(w);
        for (auto& m : pair.metrics)
            for (auto* text : {&m.reference, &m.threshold_source, &m.reason}) edit(*text);
    }
}

bool compared_nothing(const GateReport& report) {
    return std::all_of(report.pairs.begin(), report.pairs.end(), [](const PairReport& p) {
        return p.verdict == Verdict::new_pair || p.verdict == Verdict::new_machine || p.verdict == Verdict::skipped ||
               p.verdict == Verdict::missing || p.verdict == Verdict::not_comparable;
    });
}

void apply_empty_run_policy(GateReport& report, EmptyRun policy) {
    if (!compared_nothing(report)) return;
    const std::size_t fresh = report.count(Verdict::new_pair);
    // A pair not comparable with its baseline (another workload) recorded the first row of its new
    // workload: for the runner's first-run rule it counts as recorded, never as compared.
    const std::size_t changed = report.count(Verdict::not_comparable);
    const std::size_t new_machine = report.count(Verdict::new_machine);
    const std::string counts =
        fmt::format("{}: {} new, {}{} skipped, {} missing{}", counted(report.pairs.size(), "pair"), fresh,
                    new_machine > 0 ? fmt::format("{} new machine, ", new_machine) : std::string(),
                    report.count(Verdict::skipped), report.count(Verdict::missing),
                    changed == 0 ? std::string() : fmt::format(", {} not comparable", changed));
    switch (policy) {
        case EmptyRun::allow:
            report.notes.push_back("nothing was compared with a baseline (" + counts + "); accepted by --allow-empty");
            return;
        case EmptyRun::first_run:
            // A new machine measured its pairs and says why it cannot judge them (Gate::run's
            // note tells how to get a verdict): that is no failure of the run.
            if (new_machine > 0) return;
            if (fresh + changed > 0) {
                report.notes.push_back(fmt::format(
                    "first run: baseline recorded ({}, nothing to compare yet)",
                    changed == 0 ? counted(fresh, "new pair")
                                 : fmt::format("{} new, {} with a workload the baseline does not have", fresh, changed)));
                return;
            }
            report.empty_run_failure = "nothing was compared with a baseline and nothing new was recorded (" + counts + ")";
            return;
        case EmptyRun::fail:
            report.empty_run_failure =
                "nothing was compared with a baseline (" + counts +
                "): a first run, an empty or wrong --benchmarks-dir, or results without rows; pass --allow-empty to "
                "accept a run with nothing to compare";
            return;
    }
}

std::string verdict_counts(const GateReport& report) {
    std::vector<std::string> parts;
    for (int v = static_cast<int>(Verdict::failed); v <= static_cast<int>(Verdict::unchanged); ++v) {
        const auto verdict = static_cast<Verdict>(v);
        const std::size_t n = report.count(verdict);
        if (n == 0) continue;
        // "1 new pair" reads better than "1 pair new"; every other verdict follows the noun.
        const std::string part = verdict == Verdict::new_pair      ? counted(n, "new pair")
                                 : verdict == Verdict::new_machine ? counted(n, "pair") + " new machine (no verdict)"
                                                                   : counted(n, "pair") + " " + to_string(verdict);
        parts.push_back(part);
    }
    return parts.empty() ? "no pairs" : fmt::format("{}", fmt::join(parts, ", "));
}

std::optional<std::string> compared_line(const GateReport& report) {
    // Why a pair was not compared, in the words a newcomer needs, most common first.
    static const std::pair<Verdict, const char*> not_compared[] = {
        {Verdict::new_machine, "new machine (their history comes from other machines)"},
        {Verdict::new_pair, "new (no earlier reading)"},
        {Verdict::skipped, "skipped"},
        {Verdict::skipped_as_before, "skipped as before"},
        {Verdict::failed, "failed"},
        {Verdict::missing, "missing"},
        {Verdict::not_comparable, "not comparable"},
    };
    std::vector<std::string> why;
    std::size_t others = 0;
    for (const auto& [verdict, words] : not_compared)
        if (const std::size_t n = report.count(verdict)) {
            why.push_back(fmt::format("{} {}", n, words));
            others += n;
        }
    if (others == 0) return std::nullopt;
    const std::size_t total = report.pairs.size();
    return fmt::format("compared {} of {} with a baseline; not compared: {}", total - others, counted(total, "pair"),
                       fmt::join(why, ", "));
}

std::vector<std::string> run_failure_lines(const GateReport& report) {
    std::vector<std::string> lines;
    if (!report.empty_run_failure.empty()) lines.push_back(report.empty_run_failure);
    lines.insert(lines.end(), report.run_failures.begin(), report.run_failures.end());
    return lines;
}

bool passed(const GateReport& report) {
    if (!report.empty_run_failure.empty() || !report.run_failures.empty()) return false;
    return std::none_of(report.pairs.begin(), report.pairs.end(), [](const PairReport& p) { return fails_gate(p.verdict); });
}

namespace {
double worst_change(const PairReport& p) {
    double worst = 0;
    for (const auto& m : p.metrics)
        if (m.change) worst = std::min(worst, *m.change);
    return worst;
}
}  // namespace

void sort_worst_first(std::vector<PairReport>& pairs) {
    std::stable_sort(pairs.begin(), pairs.end(), [](const PairReport& a, const PairReport& b) {
        if (a.verdict != b.verdict) return static_cast<int>(a.verdict) < static_cast<int>(b.verdict);
        double ca = worst_change(a), cb = worst_change(b);
        if (ca != cb) return ca < cb;
        if (a.model != b.model) return a.model < b.model;
        return a.host < b.host;
    });
}

}  // namespace perfgate::gates
