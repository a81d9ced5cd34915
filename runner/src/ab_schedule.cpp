#include "perfgate/runner/ab_schedule.hpp"

#include <algorithm>

namespace perfgate::runner {

const char* to_string(Arm arm) { return arm == Arm::base ? "base" : "head"; }

std::vector<Arm> arm_order(std::size_t round) {
    const bool base_first = round % 4 == 0 || round % 4 == 3;
    return base_first ? std::vector<Arm>{Arm::base, Arm::head} : std::vector<Arm>{Arm::head, Arm::base};
}

bool should_stop(const StopRule& rule, std::size_t rounds, const std::vector<gates::Verdict>& verdicts) {
    if (rounds >= rule.max_rounds) return true;
    if (rounds < rule.min_rounds) return false;
    return std::all_of(verdicts.begin(), verdicts.end(), gates::is_decisive);
}

}  // namespace perfgate::runner
