#pragma once
// The reference level a run is judged against (docs/gate.md, "Reference"). Comparing with the
// latest run lets a slowdown merged in steps below the floor pass step by step: each green run on
// main became the next baseline. The reference instead is the median of the FIRST runs of the
// pair's current segment, and a segment ends only when a change is accepted:
//  - an acknowledgement (acknowledgements.hpp) whose "from" a run reaches: a reviewed commit;
//  - a sustained improvement: the latest `sustained` runs, each better than the reference beyond
//    both the floor and three times the between-run spread (by chance about 1 in 10^8 on unchanged
//    runs), so the gate does not go on comparing with a level the runtime has left behind.
// A slowdown never moves the reference by itself. The spread is pooled within segments, so an
// accepted step does not count as noise.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/metric.hpp"
#include "perfgate/gates/acknowledgements.hpp"
#include "perfgate/gates/noise_model.hpp"

namespace perfgate::gates {

struct ReferenceRule {
    std::size_t runs = 5;       // first runs of the current segment whose median is the reference
    std::size_t sustained = 3;  // consecutive improved runs that move the reference up by themselves
};

struct Reference {
    std::vector<std::size_t> starts;  // first run (index into the levels) of each segment, ascending; 0 first
    std::size_t first = 0;            // the reference runs: [first, first + count)
    std::size_t count = 0;            // 0: the current segment has no run yet (an acknowledgement just began it)
    std::optional<double> level;      // count == 0: the acknowledged level, when the entry gives one
    std::string moved;                // why the current segment began; empty for the history's first run
};

// A segment start that an acknowledgement makes: the first run at or after its "from"
// (levels.size() when no run is yet), why, and the level it names (if any).
struct SegmentStart {
    std::size_t at = 0;
    std::string why;
    std::optional<double> level;
};

// The starts of the entries whose "from" is not after `now` (the current run's time), in `levels`
// (oldest first); ascending, without 0 (the history's own start) and without repeats (the newest
// entry of a start wins).
std::vector<SegmentStart> acknowledged_starts(const std::vector<RunLevel>& levels,
                                              const std::vector<const Acknowledgement*>& entries, const std::string& now);

// The reference of `levels` (oldest first) for metric `m` with floor `max_drop`.
Reference find_reference(const std::vector<RunLevel>& levels, const std::vector<SegmentStart>& acknowledged,
                         const Metric& m, double max_drop, const ReferenceRule& rule);

// A floor (max_drop: a fraction in the metric's bad direction) in log-ratio units: -log(1 - f) for
// a rate, log(1 + f) for a figure where lower is better. The one conversion the rules share.
double floor_in_log(const Metric& m, double max_drop);

// The variance of the reference level in units of one run's variance: a median of n runs
// (pi/2 / n for n >= 3, the mean's 1/n for one or two).
double reference_variance_factor(std::size_t count);

}  // namespace perfgate::gates
