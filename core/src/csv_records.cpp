#include "csv_records.hpp"

#include <fmt/format.h>

namespace perfgate::detail {
namespace {

// The last field of a record ends before its line end; a "\r\n" line end is not part of it.
void close_record(RawRecord& r, std::string_view text, std::size_t field_begin, std::size_t stop, std::size_t end) {
    std::size_t field_end = stop;
    if (field_end > field_begin && text[field_end - 1] == '\r') --field_end;
    if (!r.fields.back().empty() && r.fields.back().back() == '\r') r.fields.back().pop_back();
    r.raw_fields.push_back(text.substr(field_begin, field_end - field_begin));
    r.line_end = text.substr(field_end, end - field_end);
    r.end = end;
}

}  // namespace

Expected<RawRecord> next_raw_record(std::string_view text, std::size_t pos, std::size_t line, const std::string& name) {
    RawRecord r;
    r.begin = pos;
    r.line = line;
    r.fields.emplace_back();
    std::size_t field_begin = pos;
    bool quoted = false;
    for (; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (quoted) {
            if (c == '"' && pos + 1 < text.size() && text[pos + 1] == '"') r.fields.back() += '"', ++pos;
            else if (c == '"') quoted = false;
            else r.fields.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            r.raw_fields.push_back(text.substr(field_begin, pos - field_begin));
            r.fields.emplace_back();
            field_begin = pos + 1;
        } else if (c == '\n') {
            close_record(r, text, field_begin, pos, pos + 1);
            return r;
        } else {
            r.fields.back() += c;
        }
    }
    if (quoted) return make_error(fmt::format("{}:{}: unterminated quoted field", name, line));
    close_record(r, text, field_begin, text.size(), text.size());
    return r;
}

std::size_t lines_in(std::string_view text, std::size_t begin, std::size_t end) {
    std::size_t n = 0;
    for (std::size_t i = begin; i < end; ++i) n += text[i] == '\n';
    return n;
}

}  // namespace perfgate::detail
