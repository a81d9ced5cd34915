#pragma once
// What a live A/B run (ab_run.cpp) and a replay of its recorded rows (ab_replay.cpp) share: the
// rounds' readings, their decision after each round, and a model's verdict, so both judge alike.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/result_row.hpp"
#include "perfgate/gates/paired.hpp"
#include "perfgate/gates/thresholds.hpp"
#include "perfgate/runner/ab.hpp"

namespace perfgate::runner::detail {

// One round's headline readings (each launch read as LaunchReading says) of both arms.
struct RoundReadings {
    std::map<std::string, double> base, head;
};

// A launch's headline reading of `metric`: the median of its samples (the row's own median), or
// the best of them in the metric's own direction; nullopt when the row did not measure it.
std::optional<double> metric_of(const ResultRow& row, const std::string& metric,
                                LaunchReading reading = LaunchReading::median);

// The report's note on how launches were read; empty for the default (the median).
std::string launch_reading_note(LaunchReading reading);

// The readings of `metrics` a launch gave, into one arm of a round.
void add_readings(const ResultRow& row, const std::vector<std::string>& metrics, LaunchReading reading,
                  std::map<std::string, double>& into);

// Each metric's paired decision after `rounds` (paired rounds only), at the levels of that look:
// the floor is the metric's A/B floor (Threshold::ab_floor).
struct RoundsContext {
    const std::string& model;
    const std::string& runtime;
    const std::vector<std::string>& metrics;
    const gates::ThresholdSet& thresholds;
    const gates::LookLevels& levels;
    std::size_t max_rounds;
    LaunchReading reading;
};
std::vector<gates::PairedCheck> decide_rounds(const RoundsContext& context, const std::vector<RoundReadings>& rounds);

// A look after a round: the model's rounds and checks as of `rounds`, and whether it stops here
// (the cap, or from the minimum on every metric decisive: should_stop).
bool look(AbModelResult& result, const RoundsContext& context, const StopRule& stop,
          const std::vector<RoundReadings>& rounds);

// The worst metric verdict decides the model: failed, skipped, else regressed, inconclusive,
// improved, unchanged (inconclusive when nothing was decided).
gates::Verdict model_verdict(const AbModelResult& m);

// A run's look levels: alpha spent over every metric of every model and over the looks.
gates::LookLevels ab_levels(const StopRule& stop, double alpha, std::size_t metrics, std::size_t models);

}  // namespace perfgate::runner::detail
