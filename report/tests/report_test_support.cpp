#include "report_test_support.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>


#include "perfgate/core/csv.hpp"

namespace perfgate::report::testing {

std::string section(const std::string& page, const std::string& title) {
    const auto start = page.find("\n## " + title + "\n");
    if (start == std::string::npos) return {};
    const auto body = start + 4 + title.size() + 1;
    const auto end = page.find("\n## ", body);
    return page.substr(body, end == std::string::npos ? std::string::npos : end - body);
}

std::vector<std::string> table_cells(const std::string& line) {
    std::vector<std::string> cells;
    std::string cur;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) {
            cur += line.substr(i, 2);
            ++i;
        } else if (line[i] == '|') {
            cells.push_back(cur);
            cur.clear();
        } else {
            cur += line[i];
        }
    }
    cells.push_back(cur);
    // Drop the empty pieces before the first and after the last '|'.
    if (!cells.empty() && cells.front().find_first_not_of(' ') == std::string::npos) cells.erase(cells.begin());
    if (!cells.empty() && cells.back().find_first_not_of(' ') == std::string::npos) cells.pop_back();
    for (auto& c : cells) {
        auto b = c.find_first_not_of(' ');
        auto e = c.find_last_not_of(' ');
        c = b == std::string::npos ? std::string() : c.substr(b, e - b + 1);
    }
    return cells;
}

std::optional<std::size_t> Table::column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return i;
    return std::nullopt;
}

const std::vector<std::string>* Table::row(const std::string& first_cell) const {
    for (const auto& r : rows)
        if (!r.empty() && r[0] == first_cell) return &r;
    return nullptr;
}

Table first_table(const std::string& text) {
    Table t;
    std::istringstream in(text);
    std::string line;
    bool in_table = false;
    int n = 0;
    while (std::getline(in, line)) {
        if (line.rfind("|", 0) != 0) {
            if (in_table) break;
            continue;
        }
        in_table = true;
        if (n == 0) t.header = table_cells(line);
        else if (n > 1) t.rows.push_back(table_cells(line));
        ++n;
    }
    return t;
}

std::optional<double> leading_number(const std::string& cell) {
    const char* s = cell.c_str();
    char* end = nullptr;
    double v = std::strtod(s, &end);
    if (end == s) return std::nullopt;
    return v;
}

}  // namespace perfgate::report::testing
