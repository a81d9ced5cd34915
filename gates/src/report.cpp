#include "perfgate/gates/report.hpp"

#include <algorithm>

namespace perfgate::gates {

const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::failed: return "failed";
        case Verdict::regressed: return "regressed";
        case Verdict::inconclusive: return "inconclusive";
        case Verdict::not_comparable: return "not comparable";
        case Verdict::missing: return "missing";
        case Verdict::skipped: return "skipped";
        case Verdict::new_pair: return "new";
        case Verdict::improved: return "improved";
        case Verdict::unchanged: return "unchanged";
    }
    return "?";
}

bool fails_gate(Verdict v) { return v == Verdict::failed || v == Verdict::regressed; }

std::size_t GateReport::count(Verdict v) const {
    return static_cast<std::size_t>(
        std::count_if(pairs.begin(), pairs.end(), [v](const PairReport& p) { return p.verdict == v; }));
}

int exit_code(const GateReport& report) {
    return std::any_of(report.pairs.begin(), report.pairs.end(), [](const PairReport& p) { return fails_gate(p.verdict); })
               ? 1
               : 0;
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
