#pragma once
// Reading every mlxcel CSV generation and perfgate's own schema; writing perfgate's schema.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/result_row.hpp"

namespace perfgate {

// Bounds of a result file, each refused with "<name>:<line>: ..." (hardening issue, item 6). Real
// rows are a few hundred bytes with fields of at most a few hundred; the bounds only stop input
// that is no result file, so that reading it cannot take memory without limit. The file itself
// is at most kMaxResultFileBytes (perfgate/core/file_read.hpp).
inline constexpr std::size_t kMaxCsvRecordBytes = 1u << 20;  // one row, quoted line breaks included
inline constexpr std::size_t kMaxCsvFieldBytes = 1u << 16;
inline constexpr std::size_t kMaxResultRows = 500'000;

struct CsvLimits {
    std::size_t record_bytes = kMaxCsvRecordBytes;
    std::size_t field_bytes = kMaxCsvFieldBytes;
    std::size_t rows = kMaxResultRows;
};

// Parses CSV text (RFC 4180 quoting) into the results model, keyed by header name.
// `name` is used in error messages ("<name>:<line>: ..."). Tests pass smaller limits.
Expected<ResultFile> parse_results_csv(std::string_view text, const std::string& name, const CsvLimits& limits = {});

// Reads a results file from disk; errors name the file and line.
Expected<ResultFile> read_results_csv(const std::string& path);

// perfgate's schema, in column order.
const std::vector<std::string>& perfgate_columns();
std::string perfgate_header_line();          // without the trailing newline
std::string format_result_row(const ResultRow& row);  // one line, with the trailing newline

// Escapes one CSV field: quoted when it holds a comma, a quote, CR or LF.
std::string escape_csv_field(std::string_view value);

// Appends rows to `path` under an exclusive lock (flock), writing the header first when the file
// is new or empty. The bytes of all rows go out in one write(); on failure the file is truncated
// back to its previous length, so readers never see a torn row. A torn last row that an earlier,
// interrupted write left (no line end) is cut off first, under the lock, with a warning on stderr
// naming file:line: appended bytes must never be glued onto it.
Status append_results_locked(const std::string& path, const std::vector<ResultRow>& rows);

// As append_results_locked, but only the rows whose run_id `path` does not hold yet are appended;
// which runs the file holds is read under the same lock (perfgate merge). Returns how many rows
// were appended (0: every run was there already, and the file is not touched).
Expected<std::size_t> append_new_runs_locked(const std::string& path, const std::vector<ResultRow>& rows);

}  // namespace perfgate
