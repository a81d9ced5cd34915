// llama-bench -o sql: statements meant for SQLite, read here without a database. llama-bench prints
// a CREATE TABLE of every field with its SQL type, then one INSERT per test, every value quoted:
//   CREATE TABLE IF NOT EXISTS llama_bench (
//     build_commit TEXT,
//     ...
//   );
//   INSERT INTO llama_bench (build_commit, ..., stddev_ts) VALUES ('de3ff81', ..., '6.999582');
// Like -o csv it carries no per-repetition samples. Only that shape is read: CREATE TABLE and
// INSERT INTO of one table, values that are quoted strings ('' for a quote) or numbers; anything
// else is an error naming its line, so a dump of some other database is never taken for tests.
// (llama-bench does not double a quote inside a value: such output is not SQL, and SQLite refuses
// it too.) Each INSERT becomes the JSON object -o json would have printed, its values typed by the
// CSV reader's rule rather than by the declared column types, so a csv and an sql file of one run
// read as the same record.
// Why by hand, not through SQLite: executing a file's SQL would run whatever statements it holds
// (ATTACH, triggers, a schema of the writer's choosing), and libsqlite3 would be a new dependency
// for one output format; the shape llama-bench prints is two statements long, and anything else
// is refused.
#include <fmt/format.h>

#include <boost/algorithm/string/predicate.hpp>

#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "llama_bench_record.hpp"
#include "perfgate/core/text.hpp"

namespace perfgate::perf {
namespace {

struct SqlToken {
    enum class Kind { word, text, number, symbol };
    Kind kind;
    std::string value;  // a word or number as written, a string without its quotes, one symbol
    std::size_t line;   // where the token starts
};

bool sql_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool sql_number_char(char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
}

// The string starting at the quote at `pos`, '' read as one quote; `pos` and `line` move past it.
Expected<std::string> sql_string(std::string_view text, std::size_t& pos, std::size_t& line, const std::string& origin) {
    const std::size_t first_line = line;
    std::string value;
    for (++pos; pos < text.size(); ++pos) {
        if (text[pos] == '\'' && pos + 1 < text.size() && text[pos + 1] == '\'') {
            value += '\'';
            ++pos;
        } else if (text[pos] == '\'') {
            ++pos;
            return value;
        } else {
            if (text[pos] == '\n') ++line;
            value += text[pos];
        }
    }
    return make_error(fmt::format("{}:{}: llama-bench SQL: unterminated quoted string", origin, first_line));
}

// The number starting at `pos` (an optional minus, digits, a point, an exponent), kept as written.
Expected<std::string> sql_number(std::string_view text, std::size_t& pos, std::size_t line, const std::string& origin) {
    const std::size_t start = pos;
    for (++pos; pos < text.size() && sql_number_char(text[pos]);) ++pos;
    const auto written = text.substr(start, pos - start);
    double value = 0;
    const auto digits = written.substr(written[0] == '-' ? 1 : 0);
    if (auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
        return make_error(fmt::format("{}:{}: llama-bench SQL: '{}' is not a number", origin, line,
                                      printable_excerpt(written, 40)));
    return std::string(written);
}

Expected<std::vector<SqlToken>> sql_tokens(std::string_view text, const std::string& origin) {
    std::vector<SqlToken> tokens;
    std::size_t line = 1;
    for (std::size_t pos = 0; pos < text.size();) {
        const char c = text[pos];
        const std::size_t at = line;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            if (c == '\n') ++line;
            ++pos;
        } else if (c == '(' || c == ')' || c == ',' || c == ';') {
            tokens.push_back({SqlToken::Kind::symbol, std::string(1, c), at});
            ++pos;
        } else if (c == '\'') {
            auto s = sql_string(text, pos, line, origin);
            if (!s) return s.error();
            tokens.push_back({SqlToken::Kind::text, std::move(*s), at});
        } else if ((c >= '0' && c <= '9') || c == '-' || c == '.') {
            auto n = sql_number(text, pos, line, origin);
            if (!n) return n.error();
            tokens.push_back({SqlToken::Kind::number, std::move(*n), at});
        } else if (sql_word_char(c)) {
            const std::size_t start = pos;
            while (pos < text.size() && sql_word_char(text[pos])) ++pos;
            tokens.push_back({SqlToken::Kind::word, std::string(text.substr(start, pos - start)), at});
        } else {
            return make_error(fmt::format("{}:{}: llama-bench SQL: unexpected '{}'", origin, line,
                                          printable_excerpt(text.substr(pos, 1), 1)));
        }
    }
    return tokens;
}

// Reads the statements one by one: a CREATE TABLE is checked and passed over, an INSERT becomes a test.
class SqlStatementReader {
public:
    SqlStatementReader(std::vector<SqlToken> tokens, const std::string& origin)
        : tokens_(std::move(tokens)), origin_(origin) {}

    bool done() const { return at_ == tokens_.size(); }

    Expected<std::optional<LlamaBenchTest>> next() {
        statement_line_ = tokens_[at_].line;
        if (is_word("CREATE")) {
            if (auto st = create_table(); !st) return st.error();
            return std::optional<LlamaBenchTest>();
        }
        if (is_word("INSERT")) {
            auto test = insert();
            if (!test) return test.error();
            return std::optional<LlamaBenchTest>(std::move(*test));
        }
        return error_here("expected CREATE TABLE or INSERT INTO");
    }

private:
    bool is_word(const char* word) const {
        return !done() && tokens_[at_].kind == SqlToken::Kind::word && boost::algorithm::iequals(tokens_[at_].value, word);
    }
    bool is_symbol(char c) const {
        return !done() && tokens_[at_].kind == SqlToken::Kind::symbol && tokens_[at_].value[0] == c;
    }

    // At the token that is wrong; at the statement's first line when the text ends inside it.
    Error error_here(const std::string& expected) const {
        if (done())
            return make_error(fmt::format("{}:{}: llama-bench SQL: the statement ends before its ';' ({})", origin_,
                                          statement_line_, expected));
        return make_error(fmt::format("{}:{}: llama-bench SQL: {}, found '{}'", origin_, tokens_[at_].line, expected,
                                      printable_excerpt(tokens_[at_].value, 40)));
    }

    // Steps over the symbol `c` when it is next.
    bool take(char c) {
        if (!is_symbol(c)) return false;
        ++at_;
        return true;
    }

    Status word(const char* word) {
        if (!is_word(word)) return error_here(fmt::format("expected {}", word));
        ++at_;
        return Ok{};
    }
    Status symbol(char c) {
        if (!is_symbol(c)) return error_here(fmt::format("expected '{}'", c));
        ++at_;
        return Ok{};
    }
    Expected<std::string> name(const char* what) {
        if (done() || tokens_[at_].kind != SqlToken::Kind::word) return error_here(fmt::format("expected {}", what));
        return tokens_[at_++].value;
    }

    // Every statement names the file's one table: the first statement's.
    Status table() {
        const std::size_t line = done() ? statement_line_ : tokens_[at_].line;
        auto t = name("a table name");
        if (!t) return t.error();
        if (table_.empty()) table_ = *t;
        if (*t != table_)
            return make_error(fmt::format("{}:{}: llama-bench SQL: table {}, the file's statements are for {}", origin_,
                                          line, printable_excerpt(*t, 40), printable_excerpt(table_, 40)));
        return Ok{};
    }

    // CREATE TABLE [IF NOT EXISTS] t (name TYPE, ...);
    Status create_table() {
        for (const char* w : {"CREATE", "TABLE"})
            if (auto st = word(w); !st) return st;
        if (is_word("IF"))
            for (const char* w : {"IF", "NOT", "EXISTS"})
                if (auto st = word(w); !st) return st;
        if (auto st = table(); !st) return st;
        if (auto st = symbol('('); !st) return st;
        do {
            for (const char* what : {"a column name", "a column type"})
                if (auto n = name(what); !n) return n.error();
        } while (take(','));
        if (auto st = symbol(')'); !st) return st;
        return symbol(';');
    }

    // (a, b, ...) of column names, none named twice.
    Expected<std::vector<std::string>> columns() {
        if (auto st = symbol('('); !st) return st.error();
        std::vector<std::string> names;
        std::set<std::string> seen;
        do {
            const std::size_t line = done() ? statement_line_ : tokens_[at_].line;
            auto n = name("a column name");
            if (!n) return n.error();
            if (!seen.insert(*n).second)
                return make_error(fmt::format("{}:{}: llama-bench SQL: column {} named twice", origin_, line,
                                              printable_excerpt(*n, 40)));
            names.push_back(std::move(*n));
        } while (take(','));
        if (auto st = symbol(')'); !st) return st.error();
        return names;
    }

    // (v, w, ...) of quoted strings and numbers, each as its text.
    Expected<std::vector<std::string>> values() {
        if (auto st = symbol('('); !st) return st.error();
        std::vector<std::string> out;
        do {
            if (done() || (tokens_[at_].kind != SqlToken::Kind::text && tokens_[at_].kind != SqlToken::Kind::number))
                return error_here("expected a quoted string or a number");
            out.push_back(tokens_[at_++].value);
        } while (take(','));
        if (auto st = symbol(')'); !st) return st.error();
        return out;
    }

    // INSERT INTO t (columns) VALUES (values);
    Expected<LlamaBenchTest> insert() {
        for (const char* w : {"INSERT", "INTO"})
            if (auto st = word(w); !st) return st.error();
        if (auto st = table(); !st) return st.error();
        auto names = columns();
        if (!names) return names.error();
        if (auto st = word("VALUES"); !st) return st.error();
        auto row = values();
        if (!row) return row.error();
        if (auto st = symbol(';'); !st) return st.error();
        if (row->size() != names->size())
            return make_error(fmt::format("{}:{}: llama-bench SQL: {} values for {} columns", origin_, statement_line_,
                                          row->size(), names->size()));
        nlohmann::json object = nlohmann::json::object();
        for (std::size_t i = 0; i < names->size(); ++i)
            object[(*names)[i]] = detail::llama_bench_value((*names)[i], (*row)[i]);
        return detail::llama_bench_test_from_json(object, statement_line_);
    }

    std::vector<SqlToken> tokens_;
    const std::string& origin_;
    std::size_t at_ = 0, statement_line_ = 1;
    std::string table_;
};

}  // namespace

bool starts_as_llama_bench_sql(std::string_view text) {
    const auto body = trim(text);
    const auto starts = [&](std::string_view first, std::string_view second) {
        if (body.size() <= first.size() || !boost::algorithm::iequals(body.substr(0, first.size()), first)) return false;
        const auto rest = body.substr(first.size());
        const auto next = rest.find_first_not_of(" \t\r\n");
        return next != 0 && next != std::string_view::npos && boost::algorithm::iequals(rest.substr(next, second.size()), second);
    };
    return starts("CREATE", "TABLE") || starts("INSERT", "INTO");
}

Expected<std::vector<LlamaBenchTest>> parse_llama_bench_sql(std::string_view text, const std::string& origin) {
    // Values end up in JSON text (the record's configuration), which must be UTF-8: the fuzzer's
    // first find was an invalid byte in a value, thrown from nlohmann's dump.
    if (auto defect = find_binary_or_invalid_utf8(text))
        return make_error(fmt::format("{}:{}: llama-bench SQL: {}: not text", origin, defect->line, defect->what));
    auto tokens = sql_tokens(text, origin);
    if (!tokens) return tokens.error();
    SqlStatementReader reader(std::move(*tokens), origin);
    std::vector<LlamaBenchTest> tests;
    while (!reader.done()) {
        auto test = reader.next();
        if (!test) return test.error();
        if (*test) tests.push_back(std::move(**test));
    }
    if (tests.empty()) return make_error(origin + ":1: llama-bench SQL: no INSERT of a test");
    return tests;
}

}  // namespace perfgate::perf
