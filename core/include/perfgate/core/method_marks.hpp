#pragma once
// perfgate's own marks in a row's `flags` column (docs/csv-schema.md, "flags"). Beside the runtime's
// fixed flags they name what else decided what a pair measured and has no column of its own. The
// gate takes other flags as another method (the pair's history restarts there), so a changed mark
// keeps figures of another workload apart instead of comparing across it:
//   perfgate.load=requests:16,output-spread:0.5   a serving pair's load, per pass
//   perfgate.sweep=llama-server:concurrency      the suite's sweep the row is a point of
// A mark is one whole token that starts with "perfgate.", which no runtime flag does.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/core/result_row.hpp"

namespace perfgate {

// A workload setting a suite can sweep (a runtime's "sweep", docs/serving.md "Sweeps"). Each value
// becomes a runtime of its own, named <entry>-<letter><value> ("llama-server-c4").
enum class SweepAxis { concurrency, prompt_tokens, generated_tokens, batch };

std::string_view sweep_axis_name(SweepAxis axis);  // "concurrency", "prompt_tokens", ...
std::optional<SweepAxis> sweep_axis_named(std::string_view name);
// The letter of a point's name: c, p, n, b (llama-bench's own letters for prompt, gen and batch).
char sweep_axis_letter(SweepAxis axis);
// "llama-server" + concurrency 4 -> "llama-server-c4".
std::string sweep_point_name(std::string_view entry, SweepAxis axis, std::int64_t value);

std::string load_mark(std::int64_t requests, double output_spread);
std::string sweep_mark(std::string_view entry, SweepAxis axis);

// `flags` with `mark` appended as a token of its own.
std::string with_mark(std::string flags, std::string_view mark);

struct SweepMembership {
    std::string entry;  // the suite's runtime entry that was swept
    SweepAxis axis;
};
// The sweep a row's flags name, or nullopt (no mark, or one this version cannot read).
std::optional<SweepMembership> sweep_of(std::string_view flags);
// The swept setting's value in a row: a serving pair's concurrency and a batch are its `batch`
// column, the prompt its target length, the output its `max_tokens`.
std::optional<std::int64_t> sweep_value(const ResultRow& row, SweepAxis axis);

}  // namespace perfgate
