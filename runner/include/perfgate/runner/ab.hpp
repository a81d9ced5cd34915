#pragma once
// perfgate ab: two builds of one runtime (base and head) on the same models, measured in
// alternating rounds on one host, decided on the per-round paired ratios (docs/ab.md).
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/paired.hpp"
#include "perfgate/gates/thresholds.hpp"
#include "perfgate/perf/contention_guard.hpp"
#include "perfgate/perf/host_context.hpp"
#include "perfgate/perf/suite.hpp"
#include "perfgate/runner/ab_schedule.hpp"
#include "perfgate/runner/outcome.hpp"

namespace perfgate::runner {

// How one launch becomes its arm's reading of a round (docs/ab.md, "Statistics"): the median of
// its repetitions, or its best one (the fastest decode, the smallest peak memory). Interference on
// a shared machine (another tenant, a timer, a page fault) only ever slows a repetition, so the
// best is the least disturbed: on the 2-core VM, in decode-only launches of 512 tokens, the best
// of 2 repetitions scattered 1.5-1.7 times less per round than their median (scripts/ab-scatter).
// It cannot help where whole launches run slow, as the cpu suite's one-thread launches there did
// (docs/verdict-quality.md, "CPU: what reduces a round's scatter"); the median stays the default.
enum class LaunchReading { median, best };
// "median" or "best"; nullopt for another word.
std::optional<LaunchReading> launch_reading_from_string(const std::string& word);
const char* to_string(LaunchReading reading);

struct AbRequest {
    std::string runtime;                      // the suite's runtime both binaries stand in for
    std::string base_binary;
    std::string head_binary;
    std::vector<std::string> models;          // empty: every model the suite pairs with the runtime
    std::optional<std::int64_t> repetitions;  // per launch; default the suite's
    StopRule stop;
    double alpha = 0.01;                      // family-wise false-alarm rate of the whole run
    LaunchReading reading = LaunchReading::median;
    gates::ThresholdSet thresholds;           // each metric's floor is its max_drop
    std::filesystem::path results_dir = "build/perf-ab";  // empty: record nothing
    std::string suffix = "ab";
    std::filesystem::path forge_dir = "build/forged";
    std::filesystem::path vocab_dir;
    // The contention guard, as in perfgate run: a busy machine is waited for, then the model is
    // SKIP:contended; a launch disturbed by another process is not a reading.
    perf::ContentionMode contention = perf::ContentionMode::enforce;
};

// --base-binary and --head-binary (each RUNTIME=PATH, naming one runtime) into `request`.
Status set_ab_binaries(AbRequest& request, const std::string& base_option, const std::string& head_option);

// The metrics decided for a runtime, in report order: the gated metrics (perfgate/core/metric.hpp)
// it can measure (perf::measurable_metrics). The false-alarm rate is split over these and the
// models: a timed llama-bench over its 3 per model, a counted one over its 2.
std::vector<std::string> ab_metrics(const perf::SuiteRuntime& runtime);

struct AbModelResult {
    std::string model;
    std::string runtime;
    std::size_t rounds = 0;                   // rounds with both arms measured
    std::vector<gates::PairedCheck> checks;   // one per metric with readings, ab_metrics() order
    std::string status = "ok";                // ok, or the SKIP:/FAIL: token that ended the model
    std::string reason;                       // why it ended early, when it did
    // Wall time from its first launch to the end of its last round: measured by a live run,
    // estimated from the rows' timestamps by a replay (see replay_ab).
    std::optional<double> seconds;
    // The model's verdict, in the gate's words: failed, skipped, else the worst of its metrics'
    // verdicts (inconclusive when no metric was decided).
    gates::Verdict verdict = gates::Verdict::inconclusive;
};

struct AbReport {
    std::string runtime, base_binary, head_binary, host, run_id;
    std::filesystem::path csv;                // where both arms were recorded (empty: not recorded)
    StopRule stop;
    double alpha = 0;
    LaunchReading reading = LaunchReading::median;
    gates::LookLevels levels;                 // two-sided confidence at the interim looks and the last
    std::vector<AbModelResult> models;
    std::vector<std::string> notes;
    std::string replayed_from;                // a replay: the recorded rows' file; empty for a live run
};

// Runs the rounds. Bad input is an Error before anything runs: an unknown runtime or model, a
// binary that is not there, rounds too few for any decision (check_ab_rounds). A runtime failure
// ends that model with a FAIL: status and the report goes on.
Expected<AbReport> run_ab(const perf::Suite& suite, const perf::HostContext& host, const AbRequest& request,
                          std::ostream& log);

// The rounds must be able to decide: at `max_rounds` the interval of the last look must be narrower
// than kMaxIntervalFactor per-round spreads (gates::interval_half_width_factor), else an error that
// names the fewest rounds that would do. `tests`: the decisions alpha is split over (metrics x models).
inline constexpr double kMaxIntervalFactor = 5.0;
Status check_ab_rounds(const StopRule& stop, double alpha, std::size_t tests = 3);

// The report's statement of its false-alarm bound: `alpha` for the whole run, split over its
// `models` x `metrics` decisions and the looks of `levels`: what an A/A run of this suite may
// cost, not only one model of it; and the equivalence test's level.
std::string false_alarm_note(const gates::LookLevels& levels, double alpha, std::size_t metrics, std::size_t models);

// perfgate ab --replay: an A/B run's recorded rows (its CSV, column arm) judged again, without a
// launch, by the rule of a live run: per model, in file order, the k-th base and the k-th head
// launch form round k, looked at after each round from stop.min_rounds as a live run looks, so a
// run recorded at a fixed number of rounds shows where the sequential rule would have stopped and
// how long that took (a model's seconds: its rows' timestamps from the first launch to the end of
// that round, widened by one launch, as the first row is written when the first launch ends). A
// model whose recording ends before the rule stops is inconclusive with that said; a failed or
// skipped launch ends its model as it ended the live run. Errors name the file and line: a row
// without an arm, arms of two runtimes.
struct AbReplayRequest {
    StopRule stop;
    double alpha = 0.01;
    gates::ThresholdSet thresholds;
    LaunchReading reading = LaunchReading::median;
};
Expected<AbReport> replay_ab(const ResultFile& recorded, const AbReplayRequest& request);
// The same from the file at `csv`, with the thresholds of `thresholds_dir` for the rows' host
// (their notes added to the report's).
Expected<AbReport> replay_ab_file(const std::string& csv, const std::filesystem::path& thresholds_dir,
                                  const StopRule& stop, double alpha,
                                  LaunchReading reading = LaunchReading::median);

// fail when a model regressed or failed, skip when every model skipped, else pass.
Outcome ab_outcome(const AbReport& report);

}  // namespace perfgate::runner
