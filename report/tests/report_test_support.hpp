#pragma once
// What the report tests add to tests/support: reading a markdown page back into sections and
// table cells.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/result_row.hpp"
#include "perfgate/test/files.hpp"
#include "perfgate/test/rows.hpp"

namespace perfgate::report::testing {

using perfgate::test::TempDir;
using perfgate::test::write_perfgate_csv;
inline std::string fixture(const std::string& name) { return perfgate::test::mlxcel_csv(name); }
inline std::string read_text(const std::string& path) { return perfgate::test::read_file(path); }
inline void write_text(const std::string& path, const std::string& text) { perfgate::test::write_file(path, text); }

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

}  // namespace perfgate::report::testing
