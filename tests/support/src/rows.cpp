#include "perfgate/test/rows.hpp"

#include "perfgate/core/csv.hpp"
#include "perfgate/test/files.hpp"

namespace perfgate::test {

ResultRow make_row(const std::string& model, double decode_tok_s) {
    ResultRow row;
    row.model = model;
    row.runtime = "llama-bench";
    row.backend = "cpu";
    row.host = "cpu-epyc";
    row.date = "2026-11-29";
    row.decode_tok_s = decode_tok_s;
    return row;
}

std::string perfgate_csv(const std::vector<ResultRow>& rows) {
    std::string text = perfgate_header_line() + "\n";
    for (const auto& r : rows) text += format_result_row(r);
    return text;
}

void write_perfgate_csv(const std::filesystem::path& path, const std::vector<ResultRow>& rows) {
    write_file(path, perfgate_csv(rows));
}

}  // namespace perfgate::test
