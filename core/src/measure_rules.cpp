#include "perfgate/core/measure_rules.hpp"

#include <cmath>

#include <fmt/format.h>

namespace perfgate {

std::optional<std::string> unreadable_measure(double value) {
    if (!std::isfinite(value)) return std::string("not a finite number");
    if (value < 0) return std::string("negative");
    return std::nullopt;
}

std::optional<std::string> implausible_rate(double value) {
    if (!std::isfinite(value)) return fmt::format("{} tok/s is not a finite number", value);
    if (value <= 0) return fmt::format("{} tok/s is not a positive rate", value);
    if (value > kMaxRecordedRate)
        return fmt::format("{:g} tok/s is beyond any plausible rate (at most {:g} tok/s is recorded)", value,
                           kMaxRecordedRate);
    return std::nullopt;
}

}  // namespace perfgate
