#include "pair_loop.hpp"

#include <fmt/format.h>
#include <optional>
#include <sstream>

#include "gate_options.hpp"
#include "perfgate/core/escape.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/render.hpp"

namespace perfgate::runner::detail {
namespace {

// The verdict that asks for another launch (gates::wants_another_launch), if any pair has one.
std::optional<gates::Verdict> wants_another_launch(const gates::GateReport& report) {
    for (const auto& p : report.pairs)
        if (gates::wants_another_launch(p.verdict)) return p.verdict;
    return std::nullopt;
}

// The pair's final verdict on `log`, with the reruns it took noted.
void log_final_report(gates::GateReport& report, std::size_t reruns, std::size_t max_reruns,
                      const SuiteRunRequest& request, std::ostream& log) {
    for (auto& p : report.pairs) {
        if (reruns == 0) continue;
        p.reruns = reruns;
        report.notes.push_back(gates::rerun_note(p, max_reruns));
    }
    gates::TextStyle style;
    style.color = request.color_log;
    style.notes = false;  // the suite's summary test states the run's notes once
    log << gates::render_text(report, style);
}

}  // namespace

Expected<PairResult> run_gated_pair(const perf::Suite& suite, const perf::PairRequest& pair,
                                    const SuiteRunRequest& request, std::ostream& log, std::ostream& out) {
    // A gate that cannot know its base ref is found out before anything is measured.
    if (request.gate)
        if (auto ref = baseline_ref_for_run(request.baseline_ref); !ref) return ref.error();
    auto first = perf::run_pair(suite, pair, log, out);
    if (!first) return first.error();
    PairResult result{*first, outcome_of(first->status)};
    // Only a measured and recorded row is gated: a FAIL already fails, a SKIP is never gated.
    if (!request.gate || !first->status.ok() || first->csv.empty() || !first->row) return result;

    const ResultRow& row = *first->row;
    auto gate_opts = gate_options(suite, pair.host, request, request.history_dir.empty() ? first->csv.parent_path() : request.history_dir,
                                  row.run_id);
    if (!gate_opts) return gate_opts.error();
    auto& options = *gate_opts;
    options.report_missing = false;
    std::vector<ResultRow> rows{row};
    const std::size_t max_reruns = static_cast<std::size_t>(suite.workload.max_reruns);
    std::size_t reruns = 0;
    for (;;) {
        auto report = gates::gate_rows(rows, options);
        if (!report) {
            // At a base ref (a pull request) a gate that cannot read its inputs (an unknown ref,
            // thresholds that do not load there) is the pair's error: passing the pair's test would
            // let a 3x slower pair through whenever the base could not be read (issue 48 item 8).
            if (request.baseline_ref) return report.error();
            // Otherwise, as before the runner library existed: reported in the pair's log, the
            // pair keeps its own status (the summary test fails on it).
            log << "perfgate gate: " << report.error().message << '\n';
            return result;
        }
        const auto why = wants_another_launch(*report);
        if (why && reruns < max_reruns) {
            ++reruns;
            log << console_text(fmt::format("perfgate: {}/{}: {}, rerun {} of at most {}{}", row.runtime, row.model,
                                            gates::to_string(*why), reruns, max_reruns,
                                            *why == gates::Verdict::regressed ? " to confirm it" : ""))
                << '\n';
            std::ostringstream measurements;  // the first run's numbers are the test's measurements
            auto again = perf::run_pair(suite, pair, log, measurements);
            if (!again) {
                log << "perfgate gate: " << again.error().message << '\n';
                return result;
            }
            // A rerun that measured nothing ends the reruns; the verdict stays as it is.
            if (again->row && again->status.ok()) {
                rows.push_back(*again->row);
                continue;
            }
        }
        log_final_report(*report, reruns, max_reruns, request, log);
        if (!gates::passed(*report)) result.outcome = Outcome::fail;
        return result;
    }
}

}  // namespace perfgate::runner::detail
