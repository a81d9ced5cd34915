#include "adaptive.hpp"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "perfgate/gates/decision.hpp"

namespace perfgate::gates {
namespace {

using PairKey = std::pair<std::string, std::string>;  // model as written, runtime

PairKey pair_key_of(const PairReport& p) { return {p.current_model, p.runtime}; }

}  // namespace

Expected<GateReport> gate_rows_adaptive(std::vector<ResultRow> current, const GateOptions& options,
                                        std::size_t max_reruns, const MoreReadings& more) {
    std::map<PairKey, std::size_t> reruns;
    std::map<PairKey, bool> exhausted;  // `more` had nothing left
    for (;;) {
        auto report = gate_rows(current, options);
        if (!report) return report;
        bool again = false;
        for (const auto& pair : report->pairs) {
            const PairKey key = pair_key_of(pair);
            if (!wants_another_launch(pair.verdict) || exhausted[key]) continue;
            std::size_t& done = reruns[key];
            if (done >= max_reruns) continue;
            auto rows = more(pair, done + 1);
            if (!rows) return rows.error();
            ++done;
            if (rows->empty()) {
                exhausted[key] = true;
                continue;
            }
            for (auto& r : *rows) {
                if (r.model != pair.current_model || r.runtime != pair.runtime)
                    return make_error(fmt::format("adaptive repetitions: a rerun of {}/{} returned a row of {}/{}",
                                                  pair.runtime, pair.current_model, r.runtime, r.model));
                current.push_back(std::move(r));
            }
            again = true;
        }
        if (again) continue;
        for (auto& pair : report->pairs) {
            auto it = reruns.find(pair_key_of(pair));
            if (it == reruns.end() || it->second == 0) continue;
            pair.reruns = it->second;
            report->notes.push_back(rerun_note(pair, max_reruns));
        }
        return report;
    }
}

Expected<AdaptiveCheck> decide_metric_adaptive(const std::string& metric, const std::vector<double>& baseline,
                                               std::vector<double> current, const Threshold& threshold, StatTest test,
                                               std::size_t max_reruns, const MoreSamples& more_samples) {
    AdaptiveCheck out;
    out.check = decide_metric(metric, baseline, current, threshold, test);
    while (wants_another_launch(out.check.verdict) && out.reruns < max_reruns) {
        auto more = more_samples(out.reruns + 1);
        if (!more) return more.error();
        ++out.reruns;
        if (more->empty()) break;
        current.insert(current.end(), more->begin(), more->end());
        out.check = decide_metric(metric, baseline, current, threshold, test);
    }
    return out;
}

}  // namespace perfgate::gates
