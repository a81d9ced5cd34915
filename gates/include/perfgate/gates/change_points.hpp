#pragma once
// Change points in a pair's history (docs/gate.md, "Change points: perfgate history"). The gate
// judges one run at a time; a slowdown that was merged, or several small ones, shows instead as a
// lasting step in the sequence of run levels. This finds those steps after the fact, in the spirit
// of E-divisive means (Matteson & James 2014) as Apache Otava runs it: binary segmentation, each
// split kept only when a test says a split that strong is rare.
//
// Method, on the logarithms of the levels (a step is a ratio, whatever the pair's scale):
//  - statistic of a split at k of a segment of m runs: k (m - k) / m * (mean left - mean right)^2,
//    the between-segment sum of squares. For one split it is the likelihood-ratio statistic of a
//    mean shift under normal noise; its null variance is the same at every k, so its maximum over
//    the splits favours none of them;
//  - significance: Student's t of the strongest split (the two sides' means, their deviations
//    pooled, m - 2 degrees of freedom), two-sided, times the number of splits looked at
//    (Bonferroni over the candidates, so looking at every split cannot raise the false-step rate
//    above alpha). A permutation test was used before: it assumed nothing of the noise's shape
//    but cost up to 999 scans of each series, and its smallest p (1/1000) left a clean step with 2
//    runs after it unnamed in a series of 21. The t test holds its rate on two-mode and
//    heavy-tailed noise of these sizes too (docs/gate.md, "Change points", measured);
//  - a split is kept when p <= alpha; both halves are then searched again, each with its own test.
//    A segment shorter than 2 * min_segment is not split: one odd run is not a step.
#include <cstddef>
#include <vector>

namespace perfgate::gates {

struct ChangePointOptions {
    double alpha = 0.01;                 // per test; the false-step rate of an unchanged series
    std::size_t min_segment = 2;         // runs on each side of a step, at least
    double confidence = 0.95;            // of each step's interval
    // The smallest step that counts, as a fraction of the level (|right / left - 1| of the split's
    // segment means): a split below it is no step, whatever its p, and is not tested. 0:
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
    double p_value = 1;      // of the test that kept the split (Bonferroni over its candidate splits)
};

// The steps of `levels` (a pair's run levels, oldest first), in order of index. Levels must be
// positive and finite (std::invalid_argument otherwise). The interval of each step is a t interval
// on the log scale: the noise is the pooled spread about the segments' means (the runs between
// steps, df = runs - segments), inflated by sqrt(pi / 2) for segments of 3 runs or more, where the
// level is a median rather than a mean.
std::vector<ChangePoint> find_change_points(const std::vector<double>& levels, const ChangePointOptions& options = {});

}  // namespace perfgate::gates
