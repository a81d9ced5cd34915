#pragma once
// The rows of the page's result files arranged as the page shows them: one line per model (and
// prompt length), one cell per runtime. Repeated rows of a pair are samples (gates::group_rows).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"
#include "perfgate/gates/samples.hpp"
#include "perfgate/report/spread.hpp"

namespace perfgate::report {

struct LoadedFile {
    ResultFile file;
    std::optional<gates::BenchmarkFileName> name;
    std::vector<gates::SampleGroup> groups;  // point into file.rows
    bool imported() const { return file.generation != CsvGeneration::Perfgate; }
};

// One runtime's readings of one model line.
struct RuntimeCell {
    std::vector<const gates::SampleGroup*> groups;
    std::optional<Spread> decode;   // tok/s over every ok sample
    std::optional<Spread> prefill;
    // Every other registered metric (peak memory, device memory, instructions per token) that some
    // ok row of the cell recorded, by key, in its recorded unit.
    std::map<std::string, Spread> figures;
    std::string status = "ok";      // "ok" when any row is ok, else the last row's token
    std::string host, date;         // latest date of its rows
    std::vector<std::string> prompt_gen;  // distinct "prompt/generated" token counts
    std::string format;             // its rows' `format` (a runtime may load other weights: bf16)

    // The spread of a registered metric (decode, prefill or a figure), if the cell has it.
    std::optional<Spread> spread(const std::string& key) const;
};

struct ModelLine {
    std::string model;
    std::string harness;
    std::optional<std::int64_t> batch;
    std::optional<std::int64_t> prompt_len;  // target, else the tokens processed
    std::string format;                      // quantization / checkpoint format
    std::string format_source;               // "format column" or "model name"
    std::optional<std::uint64_t> model_bytes;
    std::optional<std::uint64_t> active_model_bytes;  // read per decoded token (rows that record it)
    bool synthetic = false;
    bool imported = false;                   // some row came from an mlxcel CSV
    std::map<std::string, RuntimeCell> cells;  // by runtime
};

struct ReportData {
    std::vector<std::unique_ptr<LoadedFile>> files;
    std::vector<std::string> runtimes;  // in order of first appearance
    std::vector<std::string> hosts;
    std::vector<ModelLine> lines;

    std::vector<const ResultRow*> all_rows() const;
    std::vector<const ResultRow*> rows_of(const std::string& runtime) const;
};

// Reads every CSV (errors name the file and line) and arranges the lines.
Expected<ReportData> load_report_data(const std::vector<std::string>& csv_paths);

// Arranges already loaded files (used by load_report_data and by tests).
void arrange_lines(ReportData& data);

// Prompt lengths within 10% (the gate's default prompt tolerance) are the same line; unknown
// lengths match anything.
bool same_prompt_length(std::optional<std::int64_t> a, std::optional<std::int64_t> b);
// A group's prompt length: its target, else the median tokens processed.
std::optional<std::int64_t> prompt_length(const gates::SampleGroup& group);

// The quantization format written at the end of an mlxcel model name ("4bit", "MXFP4-Q4", "bf16"),
// or empty.
std::string format_from_model_name(const std::string& model);

}  // namespace perfgate::report
