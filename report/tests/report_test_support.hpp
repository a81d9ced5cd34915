#pragma once
// Helpers shared by the report tests: temporary folders, perfgate-schema CSVs written through the
// core writer, and reading a markdown page back into sections and table cells.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/result_row.hpp"

namespace perfgate::report::test {

std::string fixture(const std::string& name);  // ../shared/fixtures/mlxcel-benchmarks/<name>

struct TempDir {
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string path;
    std::string file(const std::string& name) const { return path + "/" + name; }
};

std::string read_text(const std::string& path);
void write_text(const std::string& path, const std::string& text);
void write_perfgate_csv(const std::string& path, const std::vector<ResultRow>& rows);

// The text of "## <title>" up to the next "## " heading; empty when absent.
std::string section(const std::string& page, const std::string& title);
// Cells of a markdown table row, split at unescaped '|', trimmed.
std::vector<std::string> table_cells(const std::string& line);
// The table of a section: header cells, then the data rows keyed by their first cell.
struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::optional<std::size_t> column(const std::string& name) const;
    const std::vector<std::string>* row(const std::string& first_cell) const;
};
Table first_table(const std::string& text);
// The first number in a cell ("35.41 (34.90–36.02, n=5)" -> 35.41).
std::optional<double> leading_number(const std::string& cell);

}  // namespace perfgate::report::test
