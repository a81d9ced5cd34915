#include "comparability.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "perfgate/core/stats.hpp"
#include "perfgate/gates/calendar.hpp"

namespace perfgate::gates::detail {
namespace {

// Relative difference of two counts beyond `tolerance`, as a reason; nullopt when they fit.
std::optional<std::string> beyond_tolerance(const char* what, std::optional<std::int64_t> base,
                                            std::optional<std::int64_t> now, double tolerance) {
    if (!base || !now || *base <= 0) return std::nullopt;
    double rel = std::fabs(static_cast<double>(*now - *base)) / static_cast<double>(*base);
    if (rel <= tolerance) return std::nullopt;
    return fmt::format("{} {} in the baseline vs {} now differ by {:.0f}% (tolerance {:.0f}%)", what, *base, *now,
                       rel * 100, tolerance * 100);
}

// A decode-rate change that a different generated-token count cannot explain, as a phrase, or
// nullopt. Generating n instead of m tokens moves the rate by at most the ratio of the counts,
// r = min/max: fixed costs spread over fewer tokens lower it at most that much, and a longer
// context raises each token's cost at most in proportion. So a rate ratio outside [r, 1/r],
// widened by the tolerance, is a real change (a decode that fell by two thirds while 128 tokens
// became 100), judged like any other with the mismatch as a warning.
std::optional<std::string> unexplained_by_token_counts(const SampleGroup& base, const SampleGroup& now,
                                                       double tolerance) {
    const auto nb = base.generated_tokens(), nn = now.generated_tokens();
    const auto before = base.samples("decode_tok_s"), after = now.samples("decode_tok_s");
    if (!nb || !nn || *nb <= 0 || *nn <= 0 || before.empty() || after.empty()) return std::nullopt;
    const double b = median(before), a = median(after);
    if (!(b > 0)) return std::nullopt;  // no ratio can be formed; decide_metric says so
    const double r = static_cast<double>(std::min(*nb, *nn)) / static_cast<double>(std::max(*nb, *nn));
    const double q = a / b;
    if (q >= r * (1 - tolerance) && q <= (1 / r) * (1 + tolerance)) return std::nullopt;
    return fmt::format("decode_tok_s changed {:+.0f}%, far beyond the {:.0f}%..{:+.0f}% the token counts can explain",
                       (q - 1) * 100, (r * (1 - tolerance) - 1) * 100, ((1 / r) * (1 + tolerance) - 1) * 100);
}

}  // namespace

Incomparable not_comparable_reason(const SampleGroup& base, const SampleGroup& now, bool cross_runtime,
                                   const GateOptions& options, std::vector<std::string>& warnings) {
    Incomparable why;
    if (auto r = beyond_tolerance("prompt lengths", base.prompt_tokens(), now.prompt_tokens(), options.prompt_tolerance))
        why.pair = r;
    if (cross_runtime && !why.pair) {
        auto gap = calendar_days_apart(base.date(), now.date());
        if (gap && *gap > options.max_date_gap_days)
            why.pair = fmt::format("{} and {} were measured {} calendar days apart ({} vs {}); a cross-runtime "
                                   "comparison allows {}",
                                   base.runtime, now.runtime, *gap, base.date(), now.date(), options.max_date_gap_days);
    }
    if (why.pair) return why;
    if (base.max_tokens() && now.max_tokens() && *base.max_tokens() != *now.max_tokens()) {
        why.decode = fmt::format("decode budgets differ: max_tokens {} in the baseline vs {} now", *base.max_tokens(),
                                 *now.max_tokens());
    } else if (auto r = beyond_tolerance("generated token counts", base.generated_tokens(), now.generated_tokens(),
                                         options.prompt_tolerance)) {
        auto judged = unexplained_by_token_counts(base, now, options.prompt_tolerance);
        if (!judged) why.decode = r;
        else warnings.push_back(*r + "; compared anyway: " + *judged);
    }
    return why;
}

}  // namespace perfgate::gates::detail
