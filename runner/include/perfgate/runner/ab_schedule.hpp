#pragma once
// When and in which order perfgate ab measures: the arms' order per round, and when to stop.
#include <cstddef>
#include <vector>

#include "perfgate/gates/paired.hpp"

namespace perfgate::runner {

enum class Arm { base, head };
const char* to_string(Arm arm);  // "base", "head": the CSV's arm column

// Rounds follow A B, B A, B A, A B and repeat (the letters ABBA BAAB): each arm goes first in half
// of every four rounds, and a drift that is linear in time over four rounds favours neither arm
// (a plain alternation AB BA ... would still let the first arm of each pair sit on one side of it).
// `round` counts from 0.
std::vector<Arm> arm_order(std::size_t round);

struct StopRule {
    std::size_t min_rounds = 5;
    std::size_t max_rounds = 10;
};

// After `rounds` rounds: stop at the cap, or, from the minimum on, as soon as every metric's
// verdict is decisive (regressed, improved or unchanged).
bool should_stop(const StopRule& rule, std::size_t rounds, const std::vector<gates::Verdict>& verdicts);

}  // namespace perfgate::runner
