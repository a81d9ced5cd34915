#include "json_locator.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace perfgate::perf::detail {
namespace {

// An input iterator over the text that tells the handler how far the lexer has read.
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
        ++p;
        *cursor = p;
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

class LineRecorder : public nlohmann::json_sax<nlohmann::json> {
public:
    LineRecorder(const std::string& text, const char** cursor, std::map<std::string, int>& lines)
        : begin_(text.data()), cursor_(cursor), lines_(lines) {}

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override {
        record();
        stack_.push_back({true, {}, 0});
        return true;
    }
    bool key(string_t& k) override {
        stack_.back().key = escape(k);
        return true;
    }
    bool end_object() override {
        stack_.pop_back();
        next();
        return true;
    }
    bool start_array(std::size_t) override {
        record();
        stack_.push_back({false, {}, 0});
        return true;
    }
    bool end_array() override {
        stack_.pop_back();
        next();
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    struct Level {
        bool object;
        std::string key;
        std::size_t index;
    };
    static std::string escape(const std::string& k) {
        std::string out;
        for (char c : k) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
        return out;
    }
    int current_line() const {
        int line = 1;
        for (const char* p = begin_; p < *cursor_; ++p)
            if (*p == '\n') ++line;
        return line;
    }
    // Records where the value now starting lives.
    void record() {
        std::string pointer;
        for (const auto& level : stack_)
            pointer += "/" + (level.object ? level.key : std::to_string(level.index));
        lines_.emplace(pointer, current_line());
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
    const char* begin_;
    const char** cursor_;
    std::map<std::string, int>& lines_;
    std::vector<Level> stack_;
};

}  // namespace

JsonLines::JsonLines(const std::string& text) {
    const char* cursor = text.data();
    CountingIterator first{text.data(), &cursor};
    CountingIterator last{text.data() + text.size(), &cursor};
    LineRecorder recorder(text, &cursor, lines_);
    nlohmann::json::sax_parse(first, last, &recorder);
}

int JsonLines::line_of(std::string pointer) const {
    while (true) {
        if (auto it = lines_.find(pointer); it != lines_.end()) return it->second;
        const auto slash = pointer.rfind('/');
        if (slash == std::string::npos || pointer.empty()) return 1;
        pointer.erase(slash);
    }
}

}  // namespace perfgate::perf::detail
