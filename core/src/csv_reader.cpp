// Reads every mlxcel CSV generation and perfgate's schema, keyed by header name.
// The RFC 4180 tokenizer is written here rather than taken from a library: Debian 12 has no
// maintained C++ CSV package, and the reader must report physical line numbers for errors.
#include <algorithm>
#include <fmt/format.h>

#include <unordered_set>

#include "columns.hpp"
#include "perfgate/core/calendar_date.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/core/file_read.hpp"
#include "perfgate/core/text.hpp"

namespace perfgate {
namespace {

constexpr std::string_view kUnterminatedQuote = "unterminated quoted field";

std::string field_too_long(std::size_t index, std::size_t limit) {
    return fmt::format("field {} is longer than {} bytes, the most a result field may have", index, limit);
}

// Splits one record starting at `pos`; advances `pos` past its line end and counts the physical
// lines it spans. Returns an error for an unterminated quote.
std::optional<std::string> next_record(std::string_view text, std::size_t& pos, std::size_t& line,
                                       std::vector<std::string>& fields, const CsvLimits& limits) {
    fields.clear();
    std::string field;
    bool in_quotes = false;
    bool was_quoted = false;
    const std::size_t start_line = line;
    const std::size_t start = pos;
    while (pos < text.size()) {
        // Bounds: a row is a few hundred bytes, so these only stop data that is no result row
        // (a file of one endless line, an unterminated quote swallowing the rest of the file).
        if (pos - start >= limits.record_bytes) {
            line = start_line;
            return fmt::format("a record longer than {} bytes, the most a result row may have", limits.record_bytes);
        }
        if (field.size() > limits.field_bytes) {
            line = start_line;
            return field_too_long(fields.size() + 1, limits.field_bytes);
        }
        char c = text[pos];
        if (in_quotes) {
            if (c == '"') {
                if (pos + 1 < text.size() && text[pos + 1] == '"') {
                    field += '"';
                    pos += 2;
                    continue;
                }
                in_quotes = false;
                ++pos;
                continue;
            }
            if (c == '\n') ++line;
            field += c;
            ++pos;
            continue;
        }
        if (c == '"') {
            if (!field.empty() || was_quoted)
                return "a quote inside an unquoted field";
            in_quotes = was_quoted = true;
            ++pos;
            continue;
        }
        if (c == ',') {
            fields.push_back(std::move(field));
            field.clear();
            was_quoted = false;
            ++pos;
            continue;
        }
        if (c == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n') {
            ++pos;
            continue;
        }
        if (c == '\n') {
            ++pos;
            ++line;
            fields.push_back(std::move(field));
            return std::nullopt;
        }
        if (was_quoted) return "text after a closing quote";
        field += c;
        ++pos;
    }
    if (in_quotes) {
        line = start_line;
        return std::string(kUnterminatedQuote);
    }
    if (field.size() > limits.field_bytes) {
        line = start_line;
        return field_too_long(fields.size() + 1, limits.field_bytes);
    }
    fields.push_back(std::move(field));
    ++line;
    return std::nullopt;
}

CsvGeneration detect_generation(const std::vector<std::string>& header) {
    auto has = [&](std::string_view n) {
        for (const auto& h : header)
            if (h == n) return true;
        return false;
    };
    if (has("status") && has("runtime")) return CsvGeneration::Perfgate;
    if (has("mlx_rocm_overlay_commit")) return CsvGeneration::C_rocm;
    if (has("mlxcel_commit")) return CsvGeneration::C;
    if (has("commit")) return CsvGeneration::B_prime;
    if (has("prompt_target_len")) return CsvGeneration::B;
    if (has("baseline_version")) return CsvGeneration::P;
    if (has("mlxcel_version")) return CsvGeneration::A_prime;
    return CsvGeneration::A;
}

// Columns every generation has; the 11th (version) column is checked by its aliases.
constexpr std::string_view kRequired[] = {"model",         "model_path", "prompt_tokens", "generated_tokens",
                                          "prefill_ms",    "prefill_tok_s", "decode_ms",  "decode_tok_s",
                                          "date",          "hardware",   "build_type",    "max_tokens",
                                          "prompt"};

std::string runtime_from_generation(CsvGeneration g) {
    return g == CsvGeneration::P ? "mlx-lm" : "mlxcel";
}

}  // namespace

Expected<ResultFile> parse_results_csv(std::string_view text, const std::string& name, const CsvLimits& limits) {
    auto where = [&](std::size_t line) { return fmt::format("{}:{}", name, line); };
    if (text.empty()) {
        // A file of 0 bytes holds no rows: what an older perfgate left when the disk filled before
        // its first row (perfgate now creates a file whole, header and rows in one step). Read as
        // empty, with a warning, so one such file does not make every later gate of the day exit 2.
        ResultFile empty;
        empty.path = name;
        empty.warnings.push_back(name + ": empty file (0 bytes, no header); read as a file without rows");
        return empty;
    }
    if (auto bad = find_binary_or_invalid_utf8(text))
        return make_error(fmt::format("{}: {} — not a CSV text file", where(bad->line), bad->what));
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    if (text.empty()) return make_error(fmt::format("{}: empty file, expected a header line", where(1)));

    ResultFile file;
    file.path = name;
    std::size_t pos = 0, line = 1;
    std::vector<std::string> fields;
    if (auto err = next_record(text, pos, line, fields, limits)) return make_error(fmt::format("{}: {}", where(1), *err));
    file.header = fields;

    std::vector<const detail::Column*> columns;
    std::unordered_set<std::string_view> seen;
    for (const auto& h : file.header) {
        if (h.empty()) return make_error(fmt::format("{}: empty column name in the header", where(1)));
        if (!seen.insert(h).second) return make_error(fmt::format("{}: column '{}' appears twice", where(1), h));
        columns.push_back(detail::find_column(h));  // nullptr: a column perfgate does not know; kept, ignored
    }
    for (auto req : kRequired)
        if (!seen.count(req))
            return make_error(fmt::format("{}: missing required column '{}'", where(1), req));
    if (!seen.count("mlxcel_version") && !seen.count("mlx_version") && !seen.count("baseline_version"))
        return make_error(fmt::format("{}: missing the version column (mlxcel_version, mlx_version or baseline_version)", where(1)));
    file.generation = detect_generation(file.header);
    const bool own_schema = file.generation == CsvGeneration::Perfgate;

    // A row is large (every column a field): reserve one per line end, so the vector never moves
    // rows as it grows, and parse each into its place (the gate reads 1,000 history files of 200
    // rows: moving rows was a third of its time, docs/gate.md "Measured speed").
    file.rows.reserve(std::min<std::size_t>(static_cast<std::size_t>(std::count(text.begin() + static_cast<long>(pos), text.end(), '\n')) + 1,
                                            limits.rows));
    while (pos < text.size()) {
        const std::size_t row_line = line;
        auto record_error = next_record(text, pos, line, fields, limits);
        // perfgate ends every row it writes with a line end outside quotes, so in its own schema a
        // last row without one (or cut inside a quoted prompt's line break) is a write that was cut short (a crash, an older perfgate killed by SIGXFSZ).
        // Reported and skipped, so that one interrupted run does not make every later read of the
        // file fail; the next append cuts it off (append_results_locked).
        if (own_schema && pos == text.size() && (text.back() != '\n' || record_error == kUnterminatedQuote)) {
            file.warnings.push_back(fmt::format("{}: a torn last row (no line end: a write that was cut short); "
                                                "skipped", where(row_line)));
            break;
        }
        if (record_error) return make_error(fmt::format("{}: {}", where(row_line), *record_error));
        if (fields.size() == 1 && fields[0].empty()) continue;  // blank line
        if (file.rows.size() == limits.rows)
            return make_error(fmt::format("{}: more than {} rows, the most a result file may hold", where(row_line), limits.rows));
        ResultRow& row = file.rows.emplace_back();
        row.source_file = name;
        row.source_line = row_line;
        if (!own_schema) row.runtime = runtime_from_generation(file.generation);
        std::size_t n = fields.size();
        if (n == file.header.size() + 1 && !own_schema) {
            // mlxcel's trailing, unnamed SKIP:/FAIL: token.
            if (!StatusToken::valid(fields.back()) || fields.back() == "ok")
                return make_error(fmt::format("{}: {} fields for {} columns, and the extra field '{}' is not a SKIP:/FAIL: token",
                                              where(row_line), n, file.header.size(), fields.back().substr(0, 40)));
            row.status.text = fields.back();
            --n;
        } else if (n != file.header.size()) {
            return make_error(fmt::format("{}: {} fields, the header has {} columns (ragged row)", where(row_line), n,
                                          file.header.size()));
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (!columns[i]) continue;
            if (auto err = detail::parse_field(row, columns[i]->field, fields[i]))
                return make_error(fmt::format("{}: column '{}': {}", where(row_line), file.header[i], *err));
        }
        if (row.model.empty()) return make_error(fmt::format("{}: empty 'model' field", where(row_line)));
        // A date that names no calendar day would sort and match as text, so a baseline could
        // silently go unused; an empty date stays an unknown value.
        if (!row.date.empty() && !iso_day_number(row.date))
            return make_error(fmt::format("{}: column 'date': not a real YYYY-MM-DD date: '{}'", where(row_line),
                                          row.date.substr(0, 40)));
    }
    return file;
}

Expected<ResultFile> read_results_csv(const std::string& path) {
    auto text = read_regular_file(path);
    if (!text) return text.error();
    return parse_results_csv(*text, path);
}

}  // namespace perfgate
