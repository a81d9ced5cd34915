// llama-bench -o csv: a header of field names, then one row per test with every value quoted.
// It carries no per-repetition samples (only avg_* and stddev_*). Each row becomes the JSON
// object -o json would have printed (numbers where the text is a number), so the formats share
// one record reader.
#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

#include "llama_bench_record.hpp"
#include "perfgate/core/text.hpp"

namespace perfgate::perf {
namespace {

// Splits one CSV record (RFC 4180 quoting) starting at `pos`; advances `pos` past its line end
// and counts the lines it spans (a quoted field may hold a newline).
Expected<std::vector<std::string>> split_record(std::string_view text, std::size_t& pos, std::size_t& line,
                                                const std::string& origin) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    const std::size_t first_line = line;
    for (; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (quoted) {
            if (c == '"' && pos + 1 < text.size() && text[pos + 1] == '"') fields.back() += '"', ++pos;
            else if (c == '"') quoted = false;
            else fields.back() += c;
            if (c == '\n') ++line;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c == '\n') {
            ++pos;
            ++line;
            return fields;
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    if (quoted) return make_error(fmt::format("{}:{}: llama-bench CSV: unterminated quoted field", origin, first_line));
    ++line;
    return fields;
}

}  // namespace

namespace detail {

nlohmann::json llama_bench_value(const std::string& key, const std::string& text) {
    // Identity fields stay text even when they look like numbers (a commit "1234567").
    if (key == "build_commit" || key == "model_filename" || key == "model_type" || key == "cpu_info" ||
        key == "gpu_info" || key == "backends" || key == "test_time")
        return text;
    std::int64_t i = 0;
    if (auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
        ec == std::errc() && end == text.data() + text.size() && !text.empty())
        return i;
    double d = 0;
    if (auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
        ec == std::errc() && end == text.data() + text.size() && !text.empty())
        return d;
    return text;
}

}  // namespace detail

Expected<std::vector<LlamaBenchTest>> parse_llama_bench_csv(std::string_view text, const std::string& origin) {
    // The record's configuration is JSON text, which must be UTF-8 (nlohmann's dump throws).
    if (auto defect = find_binary_or_invalid_utf8(text))
        return make_error(fmt::format("{}:{}: llama-bench CSV: {}: not text", origin, defect->line, defect->what));
    std::size_t pos = 0, line = 1;
    auto header = split_record(text, pos, line, origin);
    if (!header) return header.error();
    if (header->empty() || (*header)[0] != "build_commit")
        return make_error(origin + ":1: llama-bench CSV: the header does not start with build_commit");
    std::vector<LlamaBenchTest> tests;
    while (pos < text.size()) {
        const std::size_t row_line = line;
        auto fields = split_record(text, pos, line, origin);
        if (!fields) return fields.error();
        if (fields->size() == 1 && trim((*fields)[0]).empty()) continue;  // a blank line
        if (fields->size() != header->size())
            return make_error(fmt::format("{}:{}: llama-bench CSV: {} fields, the header has {}", origin, row_line,
                                          fields->size(), header->size()));
        nlohmann::json object = nlohmann::json::object();
        for (std::size_t i = 0; i < fields->size(); ++i)
            object[(*header)[i]] = detail::llama_bench_value((*header)[i], (*fields)[i]);
        tests.push_back(detail::llama_bench_test_from_json(object, row_line));
    }
    if (tests.empty()) return make_error(origin + ":2: llama-bench CSV: no test rows");
    return tests;
}

}  // namespace perfgate::perf
