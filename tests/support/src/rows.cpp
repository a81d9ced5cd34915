#include "perfgate/test/rows.hpp"

#include "perfgate/core/csv.hpp"
#include "perfgate/test/files.hpp"

namespace perfgate::test {

ResultRow make_row(const RowFields& f) {
    ResultRow row;
    row.model = f.model;
    row.runtime = f.runtime;
    row.backend = f.backend;
    row.host = f.host;
    row.date = f.date;
    row.prompt_tokens = f.prompt_tokens;
    row.prompt_target_len = f.prompt_target_len;
    row.generated_tokens = f.generated_tokens;
    row.decode_tok_s = f.decode_tok_s;
    row.prefill_tok_s = f.prefill_tok_s;
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
