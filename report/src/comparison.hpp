#pragma once
// Runtime A versus runtime B on one host and day: per-model ratios A/B of decode and prefill tok/s,
// their distribution, and an optional relative gate (A decode >= min_ratio x B decode per model).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/report/relative_gate.hpp"
#include "perfgate/report/report_data.hpp"
#include "perfgate/report/spread.hpp"

namespace perfgate::report {

struct RuntimePair {
    std::string a, b;
};
// "mlxcel:mlx-lm" -> {mlxcel, mlx-lm}; nullopt unless both sides are non-empty and differ.
std::optional<RuntimePair> parse_runtime_pair(std::string_view text);

struct ModelRatio {
    const ModelLine* line = nullptr;
    std::optional<double> decode_ratio;   // A / B
    std::optional<double> prefill_ratio;
    std::string not_compared;             // why there is no decode ratio (empty when there is one)
    bool below_min = false;
    // The weights each side loaded (the cell's `format`, else the line's); empty: not recorded.
    std::string format_a, format_b;
    // Both formats recorded and different (Q4_0 against bf16): the ratio measures the runtimes and
    // the formats together, and whoever shows it must say so.
    bool other_weights() const { return !format_a.empty() && !format_b.empty() && format_a != format_b; }
};

struct Comparison {
    RuntimePair pair;
    std::vector<ModelRatio> models;       // every line that has a cell of A or B, in page order
    std::optional<Spread> decode;         // over the decode ratios
    std::optional<Spread> prefill;
    std::optional<double> min_ratio;
    long max_date_gap_days = 1;

    std::size_t compared() const;
    std::vector<const ModelRatio*> failing() const;
    RelativeGate verdict() const;
};

Comparison compare_runtimes(const ReportData& data, const RuntimePair& pair, std::optional<double> min_ratio,
                            long max_date_gap_days = 1);

}  // namespace perfgate::report
