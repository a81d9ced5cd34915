#pragma once
// Regression thresholds: thresholds/default.json, overridden by thresholds/<host_tag>.json, per metric
// and per model/runtime glob. See docs/gate.md for the file format and the lookup order.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/json_input.hpp"
#include "perfgate/core/text.hpp"

namespace perfgate::gates {

// One layer of settings; unset fields fall through to the layer below.
struct ThresholdFields {
    std::optional<double> max_drop;  // fraction, e.g. 0.05 = a 5% drop is tolerated
    std::optional<double> alpha;     // significance level of the one-sided test
    std::optional<double> noise;     // host's recorded run-to-run noise, widens single-reading limits
    // Between-run spread (relative) assumed for a pair whose history is too short to measure its
    // own: the fallback rule's prior (docs/gate.md). perfgate calibrate writes the measured one.
    std::optional<double> run_noise;
    // The floor of an interleaved A/B (perfgate ab, docs/ab.md): the smallest change that matters
    // when base and head share the machine and the minutes, so drift cancels and the history's
    // allowance for it (max_drop) is not needed. Unset: max_drop.
    std::optional<double> ab_max_drop;
};

struct ThresholdRule {
    std::string metric = "*";   // metric name or "*"
    std::string model = "*";    // glob (fnmatch) over the canonical model name
    std::string runtime = "*";  // glob over the runtime
    ThresholdFields fields;
    std::string where;          // "thresholds/default.json:12"
};

// The host's measured memory bandwidth (optional "memory_bandwidth" object of a host file): the
// roof of the report's decode-efficiency column. Informational, never used for a verdict.
struct MemoryBandwidth {
    double bytes_per_s = 0;
    std::string source;  // how it was measured ("device-to-device copy, scripts/device/h200-trust.sh bandwidth")
    std::string date;    // YYYY-MM-DD of the measurement
    std::string where;   // "thresholds/h200.json:4"
};

// One parsed file: the "metrics" section becomes rules with model/runtime "*", followed by the
// "overrides" in file order.
struct ThresholdFile {
    std::string name;
    std::vector<ThresholdRule> rules;
    std::optional<MemoryBandwidth> memory_bandwidth;
};

// A resolved threshold, with the place each value came from.
struct Threshold {
    double max_drop = 0.05;
    double alpha = 0.05;
    double noise = 0.0;
    std::string source;  // e.g. "thresholds/default.json:5, thresholds/m1ultra.json:9"
    double run_noise = 0.05;  // the fallback rule's prior when no file says otherwise: 5% between runs
    std::optional<double> ab_max_drop;
    double ab_floor() const { return ab_max_drop.value_or(max_drop); }
};

class ThresholdSet {
public:
    // Layers apply in order: defaults first, then the host file; within a file, later rules win.
    void add_layer(ThresholdFile file) { layers_.push_back(std::move(file)); }
    Threshold lookup(std::string_view metric, std::string_view model, std::string_view runtime) const;
    const std::vector<ThresholdFile>& layers() const { return layers_; }

private:
    std::vector<ThresholdFile> layers_;
};

// Built-in defaults, used only when no thresholds/default.json exists (said in the report).
ThresholdFile builtin_default_thresholds();

// Parses and validates one thresholds file; errors read "<name>:<line>: <what>".
Expected<ThresholdFile> parse_threshold_file(std::string_view text, const std::string& name);
// Validates one parsed thresholds file (core's read_thresholds_json), named by its origin. Besides
// the gate's settings it accepts the probe's "memory_headroom" (checked by core's rule).
Expected<ThresholdFile> threshold_file_from(const JsonDocument& doc);

// `thresholds_json` (a whole thresholds file) with its "memory_bandwidth" set to `bandwidth`: a
// recalibration rewrites the host file, and the measured bandwidth must survive it.
std::string with_memory_bandwidth(std::string_view thresholds_json, const MemoryBandwidth& bandwidth);

}  // namespace perfgate::gates
