#pragma once
// Groups result rows into pairs: rows of one file with the same model (alias-resolved), runtime,
// harness, batch and prompt target length are repetitions of one pair, and their readings are
// samples (mlxcel's tool kept only the last row).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/result_row.hpp"
#include "perfgate/gates/catalog.hpp"
#include "perfgate/gates/file_name.hpp"

namespace perfgate::gates {

// Where a row's identity comes from when perfgate's own columns are empty (mlxcel files).
struct RowContext {
    std::optional<BenchmarkFileName> file_name;
    std::string host_override;
};

struct SampleGroup {
    std::string model;        // canonical
    std::string raw_model;    // as written (first row)
    std::string runtime;
    std::string series;       // backend or runtime used to find baseline files
    std::string host;
    std::string harness;
    std::optional<std::int64_t> batch;
    std::optional<std::int64_t> prompt_target_len;
    std::vector<const ResultRow*> rows;  // every row of the pair, in file order
    std::vector<const ResultRow*> ok_rows;

    // Identity strings: the fields joined by the ASCII unit separator 0x1F, a control character,
    // not '|' (a model name may contain '|'); a missing number is written "-".
    std::string key() const;        // model, harness, batch, runtime, prompt target length
    std::string model_key() const;  // model, harness, batch (prompt length matched separately)

    std::string date() const;                           // the latest row date, else the file's
    std::optional<std::int64_t> prompt_tokens() const;  // median over ok rows
    std::optional<std::int64_t> generated_tokens() const;
    std::optional<std::int64_t> max_tokens() const;
    std::vector<double> samples(const std::string& metric) const;  // over ok rows
    // "ok" when any row is ok, else the status token of the last row.
    std::string status() const;
    std::string source() const;     // file:line of the first row
    const ResultRow& first() const { return *rows.front(); }
};

// Groups rows in file order; the returned groups point into `rows`.
std::vector<SampleGroup> group_rows(const std::vector<ResultRow>& rows, const RowContext& context,
                                    const ModelCatalog& catalog);

// The keys of the metrics the gate compares: the gated metrics (perfgate/core/metric.hpp), in
// their order.
const std::vector<std::string>& gated_metrics();

// The metric a pair is measured by: the first gated metric `g` has readings of (decode for a timed
// pair, instructions per token for a counted one), else the first gated metric. It counts the
// pair's runs, and it is the one line a pair keeps when neither side has a reading of anything;
// the other metrics neither side measured are no comparison at all and are left out.
const std::string& headline_metric(const SampleGroup& g);

}  // namespace perfgate::gates
