#include "perfgate/core/json_input.hpp"

#include <iterator>
#include <optional>
#include <unordered_set>
#include <vector>

#include "perfgate/core/text.hpp"

namespace perfgate {
namespace {

using nlohmann::json;

// An input iterator over the text that tells the handler how far the lexer has read: the SAX
// interface reports values but not where they are.
struct CountingIterator {
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    const char* p;
    const char** cursor;
    reference operator*() const { return *p; }
    CountingIterator& operator++() {
        *cursor = ++p;
        return *this;
    }
    CountingIterator operator++(int) {
        auto old = *this;
        ++*this;
        return old;
    }
    bool operator==(const CountingIterator& o) const { return p == o.p; }
    bool operator!=(const CountingIterator& o) const { return p != o.p; }
};

std::string too_deep_message() {
    return "JSON nested deeper than " + std::to_string(max_json_depth) + " levels of arrays and objects";
}

struct Problem {
    std::size_t line;
    std::string what;
};

// Records the line of every value under its JSON pointer, and stops at the first syntax error or
// repeated member name.
class LineRecorder : public nlohmann::json_sax<json> {
public:
    LineRecorder(std::string_view text, std::size_t first_line, const char** cursor, JsonLines& lines)
        : text_(text), scanned_(text.data()), line_(first_line), first_line_(first_line), cursor_(cursor), lines_(lines) {}

    const std::optional<Problem>& problem() const { return problem_; }

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return open(true); }
    bool key(string_t& k) override {
        auto& level = stack_.back();
        level.key = json_pointer_token(k);
        if (!level.keys.insert(k).second) {
            const std::string parent = pointer_to_parent();
            problem_ = Problem{current_line(), "key \"" + k + "\" appears twice in the same object (" +
                                                   (parent.empty() ? std::string("top level") : parent) +
                                                   "); JSON readers keep only one of them, so a file must say it once"};
            return false;
        }
        return true;
    }
    bool end_object() override {
        stack_.pop_back();
        next();
        return true;
    }
    bool start_array(std::size_t) override { return open(false); }
    bool end_array() override {
        stack_.pop_back();
        next();
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        // `position` is just past the offending character (for a number: just past the number).
        problem_ = Problem{first_line_ - 1 + line_of_offset(text_, position == 0 ? 0 : position - 1), "invalid JSON: " + reason(e.what())};
        return false;
    }

private:
    struct Level {
        bool object;
        std::string key;  // the current member's name, as a pointer token
        std::size_t index;
        std::unordered_set<std::string> keys;  // names seen so far, decoded ("max\u005fdrop" is max_drop)
    };

    // nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix:
    // the line is already in front.
    static std::string reason(std::string what) {
        if (auto cut = what.find("syntax error"); cut != std::string::npos) return what.substr(cut);
        if (auto close = what.find("] "); what.rfind('[', 0) == 0 && close != std::string::npos) return what.substr(close + 2);
        return what;
    }
    // Line of the last character the lexer used. It has read the whole token, plus one character
    // after a number; that look-ahead may be a newline, so it is not counted. No token spans lines.
    std::size_t current_line() {
        const char* last = *cursor_ > text_.data() ? *cursor_ - 1 : *cursor_;
        for (; scanned_ < last; ++scanned_)
            if (*scanned_ == '\n') ++line_;
        return line_;
    }
    std::string pointer_to_parent() const {
        std::string pointer;
        for (std::size_t i = 0; i + 1 < stack_.size(); ++i)
            pointer += "/" + (stack_[i].object ? stack_[i].key : std::to_string(stack_[i].index));
        return pointer;
    }
    // An array or object opens: refused beyond the nesting bound, before its pointer is built.
    bool open(bool object) {
        if (stack_.size() >= max_json_depth) {
            problem_ = Problem{current_line(), too_deep_message()};
            return false;
        }
        record();
        stack_.push_back({object, {}, 0, {}});
        return true;
    }
    // Records where the value now read lives.
    void record() {
        std::string pointer;
        for (const auto& level : stack_) pointer += "/" + (level.object ? level.key : std::to_string(level.index));
        lines_.record(std::move(pointer), current_line());
    }
    // A value is complete: the next one in an array has the next index.
    void next() {
        if (!stack_.empty() && !stack_.back().object) ++stack_.back().index;
    }
    bool value() {
        record();
        next();
        return true;
    }

    std::string_view text_;
    const char* scanned_;  // newlines before here are counted in line_
    std::size_t line_;
    std::size_t first_line_;  // the line the text starts on in its file
    const char** cursor_;
    JsonLines& lines_;
    std::vector<Level> stack_;
    std::optional<Problem> problem_;
};

// Offset of the first '[' or '{' that opens a level beyond max_json_depth, outside strings.
std::optional<std::size_t> first_too_deep(std::string_view text) {
    std::size_t depth = 0;
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_json_depth) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

}  // namespace

Expected<nlohmann::json> parse_json_value(std::string_view text) {
    if (const auto at = first_too_deep(text))
        return make_error(too_deep_message() + " (line " + std::to_string(line_of_offset(text, *at)) + ")");
    auto value = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded()) return make_error("not valid JSON");
    return value;
}

std::size_t JsonLines::line_of(std::string_view pointer) const {
    std::string p(pointer);
    while (true) {
        if (auto it = lines_.find(p); it != lines_.end()) return it->second;
        const auto slash = p.rfind('/');
        if (slash == std::string::npos) return 1;
        p.erase(slash);
    }
}

std::string JsonDocument::where(std::string_view pointer) const {
    return origin + ":" + std::to_string(lines.line_of(pointer));
}

Error JsonDocument::error(std::string_view pointer, std::string_view what) const {
    return make_error(where(pointer) + ": " + std::string(what));
}

std::string json_pointer_token(std::string_view key) {
    std::string out;
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

Expected<JsonDocument> parse_json_document(std::string_view text, const std::string& origin, std::size_t first_line) {
    JsonDocument doc;
    doc.origin = origin;
    // One pass finds the first problem and the lines; only a text without one becomes the value.
    const char* cursor = text.data();
    CountingIterator first{text.data(), &cursor};
    CountingIterator last{text.data() + text.size(), &cursor};
    LineRecorder recorder(text, first_line, &cursor, doc.lines);
    json::sax_parse(first, last, &recorder);
    if (const auto& problem = recorder.problem())
        return make_error(origin + ":" + std::to_string(problem->line) + ": " + problem->what);
    doc.value = json::parse(text.begin(), text.end());  // cannot throw: the same parser has just accepted the text
    return doc;
}

}  // namespace perfgate
