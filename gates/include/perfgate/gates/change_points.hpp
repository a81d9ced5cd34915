#pragma once
// Change points in a pair's history (docs/gate.md, "Change points: perfgate history"). The gate
// judges one run at a time; a slowdown that was merged, or several small ones, shows instead as a
// lasting step in the sequence of run levels. This finds those steps after the fact, in the spirit
// of E-divisive means (Matteson & James 2014): binary segmentation, each split kept only when a
// permutation test says a split that strong is rare in the same runs shuffled.
//
// Method, on the logarithms of the levels (a step is a ratio, whatever the pair's scale):
//  - statistic of a split at k of a segment of m runs: k (m - k) / m * (mean left - mean right)^2,
//    the between-segment sum of squares. For one split it is the likelihood-ratio statistic of a
//    mean shift under normal noise; its null variance is the same at every k, so its maximum over
//    the splits favours none of them;
//  - significance: the maximum over the allowed splits, compared with the same maximum over
//    `permutations` shuffles of the segment (p = (1 + shuffles at least as strong) / (1 + shuffles)).
//    Shuffling makes no assumption about the shape of the noise (the two-mode prefill of a tiny
//    model, a long tail), only that unchanged runs are exchangeable; the maximum over splits is
//    calibrated as a whole, so looking at every split costs no extra false alarms;
//  - a split is kept when p <= alpha; both halves are then searched again, each with its own test.
//    A segment shorter than 2 * min_segment is not split: one odd run is not a step.
// The shuffles come from a fixed seed (std::mt19937_64, whose output the standard fixes, with our
// own bounded draw and Fisher-Yates), so the same history always gives the same steps.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace perfgate::gates {

struct ChangePointOptions {
    double alpha = 0.01;                 // per test; the false-step rate of an unchanged series
    std::size_t min_segment = 2;         // runs on each side of a step, at least
    std::size_t permutations = 999;      // smallest attainable p: 1 / (1 + permutations) = 0.001
    std::uint64_t seed = 0x70657266'67617465ULL;  // "perfgate"
    double confidence = 0.95;            // of each step's interval
    // The smallest step that counts, as a fraction of the level (|right / left - 1| of the split's
    // segment means): a split below it is no step, whatever its p, and costs no permutations. 0:
    // every significant split. perfgate history uses half the metric's floor (docs/gate.md).
    double min_change = 0;
};

struct ChangePoint {
    std::size_t index = 0;   // the first run after the step (0-based, into the levels given)
    double before = 0;       // median level of the segment before the step
    double after = 0;        // median level of the segment after it
    double change = 0;       // after / before - 1
    double change_low = 0;   // the interval of `change` at options.confidence
    double change_high = 0;
    double p_value = 1;      // of the permutation test that kept the split
};

// The steps of `levels` (a pair's run levels, oldest first), in order of index. Levels must be
// positive and finite (std::invalid_argument otherwise). The interval of each step is a t interval
// on the log scale: the noise is the pooled spread about the segments' means (the runs between
// steps, df = runs - segments), inflated by sqrt(pi / 2) for segments of 3 runs or more, where the
// level is a median rather than a mean.
std::vector<ChangePoint> find_change_points(const std::vector<double>& levels, const ChangePointOptions& options = {});

}  // namespace perfgate::gates
