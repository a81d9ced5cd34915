#include "pair_verdicts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include "perfgate/core/metric.hpp"
#include "perfgate/core/stats.hpp"

namespace perfgate::gates::detail {

PairReport describe_pair(const SampleGroup& g) {
    PairReport p;
    p.model = g.model;
    p.runtime = g.runtime;
    p.host = g.host;
    p.harness = g.harness;
    p.batch = g.batch;
    p.prompt_target_len = g.prompt_target_len;
    return p;
}

PairReport describe_current(const SampleGroup& g) {
    PairReport p = describe_pair(g);
    p.current_model = g.raw_model;
    p.prompt_tokens = g.prompt_tokens();
    p.current_status = g.status();
    p.current_source = g.source();
    p.current_date = g.date();
    p.current_rows = g.rows.size();
    return p;
}

void describe_baseline(PairReport& p, const SampleGroup& b) {
    p.baseline_model = b.raw_model;
    p.baseline_runtime = b.runtime;
    p.baseline_prompt_tokens = b.prompt_tokens();
    p.baseline_status = b.status();
    p.baseline_source = b.source();
    p.baseline_date = b.date();
    p.baseline_rows = b.rows.size();
}

void status_metrics(PairReport& p, Verdict v, const std::string& reason, const SampleGroup* now,
                    const SampleGroup* base) {
    p.verdict = v;
    p.reason = reason;
    // The pair's headline from the side that has readings (a failed run has none: the baseline's).
    const auto has_readings = [](const SampleGroup* g) { return g && !g->samples(headline_metric(*g)).empty(); };
    const SampleGroup* group = has_readings(now) ? now : has_readings(base) ? base : nullptr;
    const std::string* headline = group ? &headline_metric(*group) : nullptr;
    for (const auto& metric : gated_metrics()) {
        MetricCheck m;
        m.metric = metric;
        m.verdict = v;
        m.reason = reason;
        if (now) m.current_samples = now->samples(metric);
        if (!m.current_samples.empty()) m.current_value = median(m.current_samples);
        if (base) m.baseline_samples = base->samples(metric);
        if (!m.baseline_samples.empty()) m.baseline_value = median(m.baseline_samples);
        // A metric neither side recorded (peak memory in every file before it, a counted pair's
        // rates) is not a line; the pair's headline is, so that a pair always has one.
        const bool headline_line = headline ? metric == *headline : perfgate::metric(metric).required;
        if (!headline_line && m.current_samples.empty() && m.baseline_samples.empty()) continue;
        p.metrics.push_back(std::move(m));
    }
}

void finish_pair_verdict(PairReport& p) {
    Verdict worst = Verdict::unchanged;
    for (const auto& m : p.metrics)
        if (m.judged) worst = worse(worst, m.verdict);
    p.verdict = worst;
    std::vector<std::string> reasons;
    for (const auto& m : p.metrics) {
        if (m.verdict != worst || !m.judged) continue;
        if (!m.reason.empty()) reasons.push_back(m.metric + ": " + m.reason);
        else if (fails_gate(worst) && m.change)
            reasons.push_back(fmt::format("{} {:+.1f}% (limit {}{})", m.metric, *m.change * 100,
                                          limit_text(perfgate::metric(m.metric), m.max_drop),
                                          m.p_value ? fmt::format(", p = {:.3g}", *m.p_value) : std::string()));
    }
    if (!reasons.empty()) p.reason = fmt::format("{}", fmt::join(reasons, "; "));
}

}  // namespace perfgate::gates::detail
