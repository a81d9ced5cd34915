#pragma once
// The status of one pair, exactly as mlxcel's harness decides it (reference §4.1, §4.3).
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/core/result_row.hpp"
#include "perfgate/perf/launcher.hpp"
#include "perfgate/perf/measurement.hpp"

namespace perfgate::perf {

// mlxcel's is_oom_failure message test (case-insensitive): the one place for the OOM regex.
bool output_reports_oom(std::string_view merged_output);

// The status of a finished launch. `have_decode` says whether the adapter found a decode number.
// Order: timeout (FAIL:timeout, never OOM) > SIGKILL/137 (SKIP:oom) > other non-zero exit
// (SKIP:oom when the message matches, else FAIL:bench) > no number (FAIL:no_output) > ok.
StatusToken classify_launch(const LaunchResult& launch, bool have_decode);

// Why a parsed measurement is no reading (perfgate/core/measure_rules.hpp: a rate must be finite,
// positive and plausible), e.g. "decode_tok_s inf tok/s is not a finite number", or nullopt. A
// launch whose output holds such a rate is FAIL:bench: recorded as `ok` it would poison every later
// gate of the host.
std::optional<std::string> implausible_measurement(const Measurement& m);

// A human line explaining the status ("exit 1, no allocator message: FAIL:bench").
std::string describe_launch(const LaunchResult& launch);

}  // namespace perfgate::perf
