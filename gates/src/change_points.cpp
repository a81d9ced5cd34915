#include "perfgate/gates/change_points.hpp"

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "perfgate/gates/statistics.hpp"

namespace perfgate::gates {
namespace {

struct Split {
    std::size_t at = 0;  // runs left of the split
    double stat = 0;     // k (m - k) / m * (mean left - mean right)^2
    double shift = 0;    // mean right - mean left (log levels)
};

// The strongest split of x[0, m) with at least min_seg runs on each side. One pass over prefix
// sums: the statistic only needs the left sum, so the search is linear in m.
Split best_split(const double* x, std::size_t m, std::size_t min_seg) {
    double total = 0;
    for (std::size_t i = 0; i < m; ++i) total += x[i];
    Split best;
    double left = 0;
    for (std::size_t k = 1; k < m; ++k) {
        left += x[k - 1];
        if (k < min_seg || m - k < min_seg) continue;
        const double kk = static_cast<double>(k), rest = static_cast<double>(m - k);
        const double d = left / kk - (total - left) / rest;
        const double stat = kk * rest / static_cast<double>(m) * d * d;
        if (stat > best.stat) best = {k, stat, -d};
    }
    return best;
}

// The p-value of the strongest split of x[0, m) (Split::stat, chosen among `candidates` allowed
// splits): Student's t of the two sides' means, each side's deviations pooled (m - 2 degrees of
// freedom; t^2 = stat (m - 2) / (sum of squares about the overall mean - stat)), two-sided, times
// the number of splits looked at (Bonferroni: the strongest of `candidates` correlated tests is
// no rarer than that under the null, so the scan's false-step rate stays at most alpha). A closed
// form instead of the permutation test it replaced (issue 45 item 4, as Apache Otava does): far
// cheaper, and able to name a clean step with 2 runs after it, where 999 shuffles of 21 runs could
// not reach p = 0.01 (docs/gate.md, "Change points").
double split_p(const double* x, std::size_t m, const Split& s, std::size_t candidates) {
    double total = 0;
    for (std::size_t i = 0; i < m; ++i) total += x[i];
    const double mu = total / static_cast<double>(m);
    double squares = 0;
    for (std::size_t i = 0; i < m; ++i) squares += (x[i] - mu) * (x[i] - mu);
    const double df = static_cast<double>(m) - 2;
    const double within = squares - s.stat;  // the two sides' pooled sum of squares
    if (df < 1) return 1.0;
    if (!(within > squares * 1e-12)) return 0.0;  // both sides flat: a step without noise
    const double t = std::sqrt(s.stat * df / within);
    const double two_sided = 2 * boost::math::cdf(boost::math::complement(boost::math::students_t(df), t));
    return std::min(1.0, two_sided * static_cast<double>(candidates));
}

struct Found {
    std::size_t index;
    double p;
};

// Binary segmentation of logs[begin, end): test the strongest split; if it holds, search each side.
void segment(const std::vector<double>& logs, std::size_t begin, std::size_t end, const ChangePointOptions& o,
             std::vector<Found>& found) {
    const std::size_t m = end - begin;
    if (m < 2 * o.min_segment) return;
    const Split s = best_split(logs.data() + begin, m, o.min_segment);
    // A flat segment (its sums differ in the last bits at most): nothing to split.
    if (!(std::fabs(s.shift) > 1e-12)) return;
    // Too small to matter: not tested, and its halves not searched, as for a split the test does not keep (a short dip that recovered is no lasting
    // step: the gate judged each of its runs when it came).
    if (std::fabs(std::expm1(s.shift)) < o.min_change) return;
    const double p = split_p(logs.data() + begin, m, s, m - 2 * o.min_segment + 1);
    if (p > o.alpha) return;
    found.push_back({begin + s.at, p});
    segment(logs, begin, begin + s.at, o, found);
    segment(logs, begin + s.at, end, o, found);
}

// The spread of the logs about their segment's mean, pooled over the segments, with its degrees
// of freedom: the noise the intervals use, the steps themselves taken out.
std::pair<double, double> pooled_noise(const std::vector<double>& logs, const std::vector<std::size_t>& bounds) {
    double squares = 0;
    for (std::size_t s = 0; s + 1 < bounds.size(); ++s) {
        const std::vector<double> part(logs.begin() + static_cast<long>(bounds[s]), logs.begin() + static_cast<long>(bounds[s + 1]));
        const double mu = mean(part);
        for (double v : part) squares += (v - mu) * (v - mu);
    }
    const double df = static_cast<double>(logs.size()) - static_cast<double>(bounds.size() - 1);
    return {df > 0 ? std::sqrt(squares / df) : 0.0, df};
}

// The standard error of the log of a segment's median, per unit of noise: 1/sqrt(m) for a mean
// (a median of 1 or 2 runs is one); a median of more runs is noisier, by at most sqrt(pi/2)
// under normal noise.
double median_error(std::size_t m) {
    const double inflate = m >= 3 ? std::sqrt(std::numbers::pi / 2) : 1.0;
    return inflate / std::sqrt(static_cast<double>(m));
}

std::vector<double> slice(const std::vector<double>& v, std::size_t begin, std::size_t end) {
    return {v.begin() + static_cast<long>(begin), v.begin() + static_cast<long>(end)};
}

// Fills in the levels, change and interval of each step from the segments on its two sides.
std::vector<ChangePoint> describe(const std::vector<double>& levels, const std::vector<double>& logs,
                                  std::vector<Found> found, const ChangePointOptions& o) {
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.index < b.index; });
    std::vector<std::size_t> bounds{0};
    for (const Found& f : found) bounds.push_back(f.index);
    bounds.push_back(levels.size());
    const auto [noise, df] = pooled_noise(logs, bounds);
    const double t = df > 0 ? boost::math::quantile(boost::math::students_t(df), 0.5 + o.confidence / 2) : 0.0;
    std::vector<ChangePoint> out;
    for (std::size_t i = 0; i < found.size(); ++i) {
        const std::size_t a = bounds[i], k = bounds[i + 1], b = bounds[i + 2];
        ChangePoint c;
        c.index = k;
        c.before = median(slice(levels, a, k));
        c.after = median(slice(levels, k, b));
        c.change = c.after / c.before - 1;
        const double error = noise * std::hypot(median_error(k - a), median_error(b - k));
        const double log_change = std::log(c.after / c.before);
        c.change_low = std::expm1(log_change - t * error);
        c.change_high = std::expm1(log_change + t * error);
        c.p_value = found[i].p;
        out.push_back(c);
    }
    return out;
}

std::vector<ChangePoint> scan(const std::vector<double>& levels, const ChangePointOptions& options) {
    std::vector<double> logs;
    logs.reserve(levels.size());
    for (double v : levels) {
        if (!(v > 0) || !std::isfinite(v)) throw std::invalid_argument("find_change_points: levels must be positive and finite");
        logs.push_back(std::log(v));
    }
    std::vector<Found> found;
    segment(logs, 0, logs.size(), options, found);
    if (found.empty()) return {};  // nothing to describe (and no segments to pool noise over)
    return describe(levels, logs, std::move(found), options);
}


// The scan is a pure function of the levels and the options, and one gate call asks it about the
// same series more than once (the reference's sustained-improvement check and the noise of the
// decision both segment the pair's history): the answers are kept, keyed by the exact bytes of
// the question, so each series costs one scan per process (docs/gate.md, "Measured speed"). The
// map is bounded: past kMaxKept answers it starts again, which costs time, never a different step.
class ScanMemo {
public:
    std::vector<ChangePoint> get(const std::vector<double>& levels, const ChangePointOptions& o) {
        std::string key(sizeof(double) * levels.size() + sizeof(double) * 3 + sizeof(std::uint64_t), '\0');
        char* at = key.data();
        const auto put = [&at](const void* p, std::size_t n) { std::memcpy(at, p, n), at += n; };
        const std::uint64_t min_segment = o.min_segment;
        const double reals[3] = {o.alpha, o.confidence, o.min_change};
        put(&min_segment, sizeof min_segment);
        put(reals, sizeof reals);
        if (!levels.empty()) put(levels.data(), sizeof(double) * levels.size());
        {
            const std::lock_guard<std::mutex> hold(mutex_);
            if (const auto it = kept_.find(key); it != kept_.end()) return it->second;
        }
        std::vector<ChangePoint> found = scan(levels, o);
        const std::lock_guard<std::mutex> hold(mutex_);
        if (kept_.size() >= kMaxKept) kept_.clear();
        kept_.emplace(std::move(key), found);
        return found;
    }

private:
    static constexpr std::size_t kMaxKept = 4096;
    std::mutex mutex_;
    std::unordered_map<std::string, std::vector<ChangePoint>> kept_;
};

}  // namespace

std::vector<ChangePoint> find_change_points(const std::vector<double>& levels, const ChangePointOptions& options) {
    if (options.min_segment < 1) throw std::invalid_argument("find_change_points: min_segment must be at least 1");
    static ScanMemo memo;
    return memo.get(levels, options);
}

}  // namespace perfgate::gates
