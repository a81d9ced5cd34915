#pragma once
// Result files of any format perfgate reads, as the results CSVs that the gate and the report read:
// a perfgate or mlxcel CSV as it is, llama-bench's own output (-o json, jsonl, csv, sql) converted
// to rows in perfgate's schema, in a private folder that lives as long as this object. So one set
// of readings gets one verdict whatever format it was saved in.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"
#include "perfgate/core/scratch_folder.hpp"
#include "perfgate/gates/report.hpp"

namespace perfgate::runner {

class ResultsAsCsv {
public:
    // `host` is the host tag of llama-bench's files, which name none: required when one is given.
    static Expected<ResultsAsCsv> make(const std::vector<std::string>& paths, const std::string& host);

    // The files to read, in the order given: the originals, or their converted copies.
    const std::vector<std::string>& csv_paths() const { return csvs_; }
    bool any_converted() const { return !converted_.empty(); }
    // `text` with every converted copy's path replaced by the file it came from (messages, sources).
    void name_sources(std::string& text) const;
    // The same in every text of a gate report (sources, reasons, notes, warnings), and a note per
    // converted file.
    void name_sources(gates::GateReport& report) const;
    // "a.json (llama-bench -o json)" for each converted file: what the notes say was read.
    std::vector<std::string> conversion_notes() const;

private:
    std::optional<ScratchFolder> scratch_;
    std::vector<std::string> csvs_;
    std::vector<std::pair<std::string, std::string>> converted_;  // copy, original
    std::vector<std::string> formats_;                            // of each converted original
};

// Rows written as a perfgate CSV named <backend>_<host>_<date>[_<suffix>].csv in `folder` (the name
// the gate reads a series, host and date from; the suffix keeps two files of one day apart).
Expected<std::string> write_rows_csv(const std::string& folder, const std::vector<ResultRow>& rows,
                                     const std::string& suffix = {});

}  // namespace perfgate::runner
