#include "ab_rounds.hpp"

#include <algorithm>

#include "perfgate/core/metric.hpp"
#include "perfgate/core/stats.hpp"

namespace perfgate::runner {

std::optional<LaunchReading> launch_reading_from_string(const std::string& word) {
    if (word == "median") return LaunchReading::median;
    if (word == "best") return LaunchReading::best;
    return std::nullopt;
}

const char* to_string(LaunchReading reading) { return reading == LaunchReading::best ? "best" : "median"; }

}  // namespace perfgate::runner

namespace perfgate::runner::detail {

std::optional<double> metric_of(const ResultRow& row, const std::string& metric, LaunchReading reading) {
    const Metric& m = perfgate::metric(metric);
    const auto samples = (row.*m.samples)();
    if (samples.empty()) return std::nullopt;
    if (reading == LaunchReading::median) return perfgate::median(samples);
    return m.better == Better::higher ? *std::max_element(samples.begin(), samples.end())
                                      : *std::min_element(samples.begin(), samples.end());
}

std::string launch_reading_note(LaunchReading reading) {
    if (reading == LaunchReading::median) return {};
    return "each launch is read by its best repetition (--launch-reading best: the fastest rate, the smallest memory), "
           "not their median";
}

void add_readings(const ResultRow& row, const std::vector<std::string>& metrics, LaunchReading reading,
                  std::map<std::string, double>& into) {
    for (const auto& metric : metrics)
        if (auto v = metric_of(row, metric, reading)) into[metric] = *v;
}

std::vector<gates::PairedCheck> decide_rounds(const RoundsContext& context, const std::vector<RoundReadings>& rounds) {
    std::vector<gates::PairedCheck> checks;
    for (const auto& metric : context.metrics) {
        std::vector<double> base, head;
        for (const auto& r : rounds) {
            auto b = r.base.find(metric), h = r.head.find(metric);
            if (b == r.base.end() || h == r.head.end()) continue;  // paired rounds only
            base.push_back(b->second);
            head.push_back(h->second);
        }
        if (base.empty()) continue;
        const double floor = context.thresholds.lookup(metric, context.model, context.runtime).ab_floor();
        checks.push_back(gates::decide_paired(metric, base, head, floor,
                                              context.levels.at(rounds.size(), context.max_rounds),
                                              context.levels.equivalence_at(rounds.size(), context.max_rounds)));
    }
    return checks;
}

bool look(AbModelResult& result, const RoundsContext& context, const StopRule& stop,
          const std::vector<RoundReadings>& rounds) {
    result.rounds = rounds.size();
    result.checks = decide_rounds(context, rounds);
    std::vector<gates::Verdict> verdicts;
    for (const auto& c : result.checks) verdicts.push_back(c.verdict);
    return should_stop(stop, rounds.size(), verdicts);
}

gates::Verdict model_verdict(const AbModelResult& m) {
    if (m.status.rfind("FAIL:", 0) == 0) return gates::Verdict::failed;
    if (m.status.rfind("SKIP:", 0) == 0) return gates::Verdict::skipped;
    if (m.checks.empty()) return gates::Verdict::inconclusive;
    auto worst = gates::Verdict::unchanged;
    for (const auto& c : m.checks) worst = gates::worse(worst, c.verdict);
    return worst;
}

gates::LookLevels ab_levels(const StopRule& stop, double alpha, std::size_t metrics, std::size_t models) {
    return gates::sequential_look_levels(alpha, stop.min_rounds, stop.max_rounds, metrics * models);
}

}  // namespace perfgate::runner::detail
