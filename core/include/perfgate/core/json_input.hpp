#pragma once
// The one way perfgate reads a JSON input file (suite manifests, thresholds, model specs): parse it
// to nlohmann::json and remember the line of every value, so that every later complaint about a
// value names "<file>:<line>". nlohmann::json keeps no source positions itself.
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "perfgate/core/expected.hpp"

namespace perfgate {

// The line of every value of a JSON text, by its JSON pointer ("/models/2/name"; "" is the whole
// document). An object member's pointer names the line of its value.
class JsonLines {
public:
    // Line of the value at `pointer`, or of its nearest recorded ancestor; 1 when none is known.
    std::size_t line_of(std::string_view pointer) const;
    void record(std::string pointer, std::size_t line) { lines_.emplace(std::move(pointer), line); }

private:
    std::unordered_map<std::string, std::size_t> lines_;
};

// A parsed JSON input and where its values came from.
struct JsonDocument {
    std::string origin;  // the file name the messages start with
    nlohmann::json value;
    JsonLines lines;

    // "<origin>:<line>" of the value at `pointer`.
    std::string where(std::string_view pointer) const;
    // An error "<origin>:<line>: <what>" about the value at `pointer`.
    Error error(std::string_view pointer, std::string_view what) const;
};

// Parses `text`. Errors name the origin and the line: "<origin>:<line>: invalid JSON: <what>" for
// a syntax error or a number too large for a double (1e400), and a member name given twice in one
// object (nlohmann would keep only the last one silently, so a file could say one thing on top
// and the opposite below). Nesting beyond max_json_depth is refused too. `first_line` is the line
// of the file `text` starts on, for a JSON value cut out of a longer output (a runtime's log, one
// line of JSON Lines).
Expected<JsonDocument> parse_json_document(std::string_view text, const std::string& origin, std::size_t first_line = 1);

// The deepest nesting of arrays and objects perfgate accepts in any JSON input. Its own files nest a
// few levels and runtime outputs two or three; the bound keeps every walk over a parsed value
// (dump, the line recorder's pointers, destruction) linear in the text and off the stack's limit,
// so a hostile 100,000-level field is an error instead of a crash or a quadratic parse.
inline constexpr std::size_t max_json_depth = 64;

// Parses untrusted JSON (a runtime's or a tool's output) under max_json_depth, without recording
// lines: the value, or an error "<what>" that the caller prefixes with its origin and line.
Expected<nlohmann::json> parse_json_value(std::string_view text);

// `key` as one token of a JSON pointer (RFC 6901: '~' -> "~0", '/' -> "~1").
std::string json_pointer_token(std::string_view key);

}  // namespace perfgate
