#pragma once
// A pair's report as the gate fills it: who the pair is (from the run or from the baseline), a
// status verdict given to every metric at once, or the pair's verdict from its metrics' verdicts.
#include <string>

#include "perfgate/gates/report.hpp"
#include "perfgate/gates/samples.hpp"

namespace perfgate::gates::detail {

// The pair's identity, from whichever side has it (the run, or a baseline pair not run now).
PairReport describe_pair(const SampleGroup& g);
// The identity and the run's side of a pair run now.
PairReport describe_current(const SampleGroup& g);
void describe_baseline(PairReport& p, const SampleGroup& b);

// Every metric gets the pair's verdict (used for status verdicts: failed, skipped, new, ...). The
// readings there are still reported: a new pair's numbers are the point of its first run.
void status_metrics(PairReport& p, Verdict v, const std::string& reason, const SampleGroup* now,
                    const SampleGroup* base = nullptr);

// The pair's verdict is its worst judged metric's, and the reason says which metrics made it.
void finish_pair_verdict(PairReport& p);

}  // namespace perfgate::gates::detail
