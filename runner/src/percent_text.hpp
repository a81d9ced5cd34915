#pragma once
// How A/B reports and progress lines print a relative change.
#include <string>

#include <fmt/format.h>

namespace perfgate::runner::detail {

// "+3.2%" / "-0.4%". Bounds of a wide interval can be astronomically large after exp(); beyond
// +1000% the digits say nothing more, so the display is capped.
inline std::string percent(double fraction) {
    if (fraction > 10.0) return ">+1000%";
    return fmt::format("{:+.1f}%", fraction * 100.0);
}

}  // namespace perfgate::runner::detail
