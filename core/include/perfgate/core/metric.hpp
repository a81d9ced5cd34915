#pragma once
// The metrics perfgate records and judges, registered in one table (core/src/metric.cpp): each with
// its unit and the direction that is better, so every rule, reporter and chart works on any of them
// the same way — a tok/s that drops and a memory figure that rises are both regressions.
// Adding a metric: its column(s) in core/src/columns.cpp, its samples on ResultRow, one row in the
// table (docs/development.md, "How to add a metric").
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/result_row.hpp"

namespace perfgate {

enum class Better { higher, lower };

// How a pair measures (a suite runtime's "measure"): by timing the runtime (rates, peak memory) or
// by counting the instructions it executes under valgrind (docs/instructions.md). Each metric
// belongs to one: a pair is judged, and an A/B run splits its false-alarm rate, over its own.
// A serving pair (docs/serving.md) is timed too, but by a load generator against a server, and is
// judged on its own figures.
enum class Measure { time, instructions, serving };

struct Metric {
    std::string_view key;    // the column and the name in thresholds files: "decode_tok_s"
    std::string_view label;  // for people: "decode"
    std::string_view unit;   // of the recorded value: "tok/s", "bytes"
    Better better;
    // Read from a row: its samples, else its single value, else nothing.
    std::vector<double> (ResultRow::*samples)() const;
    // How people read it: the recorded value divided by `display_scale`, in `display_unit`
    // ("MiB" for bytes).
    double display_scale;
    std::string_view display_unit;
    // A change smaller than this, in the recorded unit, is never beyond the floor, whatever its
    // fraction: a runtime of a few MiB moves its peak by a page or an allocator arena, several
    // percent of nothing (0 for rates: their floor is relative only).
    double negligible_change;
    // Required metrics make a pair not comparable when one side lacks them (a runtime that stopped
    // reporting decode). An optional one is judged only once both sides have it: files written
    // before it existed still gate as they did.
    bool required;
    // Judged by the gate, calibrate and perfgate ab. A metric that is recorded and shown but not
    // gated is one whose reading is not yet stable enough to fail a run on (device memory: see the
    // table).
    bool gated = true;
    Measure measure = Measure::time;
};

// The table, in the order reporters show them.
const std::vector<Metric>& metrics();
// The registered metric called `key`, or nullptr.
const Metric* find_metric(std::string_view key);
// The registered metric called `key`; a key that is not registered is a programmer error
// (std::logic_error): keys reach the rules only from the table.
const Metric& metric(std::string_view key);
// The keys of the table, in its order.
const std::vector<std::string>& registered_metric_keys();
// The keys of the gated metrics, in the table's order: what the rules judge.
const std::vector<std::string>& gated_metric_keys();
// The gated metrics a pair measured that way has, in the table's order.
std::vector<std::string> gated_metric_keys(Measure measure);
// Every registered key measured that way, gated or not, in the table's order.
std::vector<std::string> metric_keys(Measure measure);
// "decode_tok_s, prefill_tok_s, peak_memory_bytes, ..."
std::string metric_keys();

// Whether a change from `baseline` to `current` is too small in absolute terms to count against a
// floor (Metric::negligible_change).
bool negligible(const Metric& m, double baseline, double current);

// The change of a metric as how much worse it got, as a fraction: +0.10 for tok/s that fell 10%
// or memory that rose 10%; negative when it got better. `change` is current / baseline - 1.
double worsening(const Metric& m, double change);
// The same for a difference of logarithms, log(current / baseline).
double worsening_log(const Metric& m, double log_ratio);
// "dropped" or "rose": the word for a change in the bad direction.
std::string_view worse_word(const Metric& m);
// "rose" or "fell": the word for a change in the good direction.
std::string_view better_word(const Metric& m);
// The floor as a signed change: "-5.0%" for a rate, "+5.0%" for memory.
std::string limit_text(const Metric& m, double max_drop);
// A value as people read it: "41.2 tok/s", "512.3 MiB".
std::string display_value(const Metric& m, double value);

}  // namespace perfgate
