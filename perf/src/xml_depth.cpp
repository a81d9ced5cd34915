#include "xml_depth.hpp"

#include <algorithm>

namespace perfgate::perf::detail {
namespace {

// rapidxml's character classes.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_name_char(char c) { return c != '\0' && !is_space(c) && c != '/' && c != '>' && c != '?'; }
bool is_attribute_name_char(char c) { return is_name_char(c) && c != '<' && c != '=' && c != '!'; }

class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text.substr(0, text.find('\0'))) {}  // rapidxml ends at NUL

    std::size_t deepest() {
        if (starts("\xEF\xBB\xBF")) i_ = 3;
        while (true) {
            if (depth_ == 0) skip_while(is_space);
            else i_ = std::min(text_.find('<', i_), text_.size());  // character data runs to the next '<'
            if (at(0) != '<') return deepest_;  // the end, or text outside the root element
            ++i_;
            if (!markup()) return deepest_;
        }
    }

private:
    // One piece of markup after its '<'; false where rapidxml would report an error.
    bool markup() {
        if (at(0) == '/') return closing_tag();
        if (at(0) == '?') return skip_past(1, "?>");  // declaration or processing instruction
        if (at(0) == '!') {
            if (starts("!--")) return skip_past(3, "-->");
            if (starts("![CDATA[")) return skip_past(8, "]]>");
            if (starts("!DOCTYPE") && is_space(at(8))) {
                i_ += 9;
                return doctype();
            }
            return skip_past(1, ">");  // other "<!" markup is skipped to its '>'
        }
        return start_tag();
    }

    bool closing_tag() {
        if (depth_ == 0) return false;
        ++i_;
        skip_while(is_name_char);
        skip_while(is_space);
        if (at(0) != '>') return false;
        ++i_;
        --depth_;
        return true;
    }

    bool start_tag() {
        const std::size_t name = i_;
        skip_while(is_name_char);
        if (i_ == name) return false;
        skip_while(is_space);
        while (is_attribute_name_char(at(0))) {
            skip_while(is_attribute_name_char);
            skip_while(is_space);
            if (at(0) != '=') return false;
            ++i_;
            skip_while(is_space);
            const char quote = at(0);
            if (quote != '"' && quote != '\'') return false;
            if (!skip_past(1, std::string_view(&quote, 1))) return false;
            skip_while(is_space);
        }
        if (at(0) == '/' && at(1) == '>') {
            i_ += 2;
            return true;
        }
        if (at(0) != '>') return false;
        ++i_;
        deepest_ = std::max(deepest_, ++depth_);
        return true;
    }

    // The DOCTYPE's internal subset may hold '>' inside brackets.
    bool doctype() {
        while (at(0) != '>') {
            if (at(0) == '\0') return false;
            if (at(0) == '[') {
                ++i_;
                for (int brackets = 1; brackets > 0; ++i_) {
                    if (at(0) == '\0') return false;
                    brackets += at(0) == '[' ? 1 : at(0) == ']' ? -1 : 0;
                }
            } else {
                ++i_;
            }
        }
        ++i_;
        return true;
    }

    char at(std::size_t k) const { return i_ + k < text_.size() ? text_[i_ + k] : '\0'; }
    bool starts(std::string_view s) const { return text_.substr(std::min(i_, text_.size())).starts_with(s); }
    template <class Pred>
    void skip_while(Pred pred) {
        while (i_ < text_.size() && pred(text_[i_])) ++i_;
    }
    // Skips `from` characters, then past the next `end`; false when there is none.
    bool skip_past(std::size_t from, std::string_view end) {
        const auto found = text_.find(end, i_ + from);
        if (found == std::string_view::npos) return false;
        i_ = found + end.size();
        return true;
    }

    std::string_view text_;
    std::size_t i_ = 0;
    std::size_t depth_ = 0;
    std::size_t deepest_ = 0;
};

}  // namespace

std::size_t xml_depth(std::string_view text) { return Scanner(text).deepest(); }

}  // namespace perfgate::perf::detail
