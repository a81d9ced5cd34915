#include "json_locate.hpp"

#include <cctype>
#include <unordered_set>
#include <vector>

namespace perfgate::gates::detail {
namespace {

struct Frame {
    bool is_array = false;
    std::string pointer;
    std::size_t next_index = 0;
    std::string pending_key;
    std::unordered_set<std::string> keys;  // decoded member names seen so far (objects)
};

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Appends a code point as UTF-8 (surrogate halves are kept as they are: only equality matters).
void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// Escapes a member name for a JSON pointer (RFC 6901: '~' -> "~0", '/' -> "~1").
std::string pointer_token(std::string_view raw) {
    std::string out;
    for (char c : raw) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

}  // namespace

std::unordered_map<std::string, std::size_t> locate_json_values(std::string_view text,
                                                                std::optional<DuplicateKey>* duplicate) {
    std::unordered_map<std::string, std::size_t> where;
    std::vector<Frame> stack;
    bool expect_key = false;

    auto value_pointer = [&]() -> std::string {
        if (stack.empty()) return "";
        auto& top = stack.back();
        if (top.is_array) return top.pointer + "/" + std::to_string(top.next_index++);
        return top.pointer + "/" + top.pending_key;
    };

    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == ':') {
            if (c == ',' && !stack.empty() && !stack.back().is_array) expect_key = true;
            continue;
        }
        if (c == '"') {
            std::size_t start = i + 1, j = start;
            std::string raw;
            while (j < text.size() && text[j] != '"') {
                if (text[j] == '\\' && j + 1 < text.size()) {
                    const char e = text[j + 1];
                    unsigned cp = 0;
                    bool hex = e == 'u' && j + 5 < text.size();
                    for (std::size_t k = 0; hex && k < 4; ++k) {
                        const int h = hex_value(text[j + 2 + k]);
                        hex = h >= 0;
                        cp = cp * 16 + static_cast<unsigned>(h);
                    }
                    if (hex) {
                        append_utf8(raw, cp);  // "max\u005fdrop" is the key max_drop
                        j += 6;
                        continue;
                    }
                    raw += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
                    j += 2;
                    continue;
                }
                raw += text[j++];
            }
            if (expect_key) {
                auto& top = stack.back();
                if (!top.keys.insert(raw).second && duplicate && !*duplicate)
                    *duplicate = DuplicateKey{top.pointer + "/" + pointer_token(raw), i};
                top.pending_key = pointer_token(raw);
                expect_key = false;
            } else {
                where.emplace(value_pointer(), i);
            }
            i = j;
            continue;
        }
        if (c == '{' || c == '[') {
            std::string ptr = value_pointer();
            where.emplace(ptr, i);
            stack.push_back(Frame{c == '[', ptr, 0, {}, {}});
            expect_key = c == '{';
            continue;
        }
        if (c == '}' || c == ']') {
            if (!stack.empty()) stack.pop_back();
            expect_key = false;
            continue;
        }
        // A number, true, false or null: record it and skip to its end.
        where.emplace(value_pointer(), i);
        while (i + 1 < text.size() && !std::isspace(static_cast<unsigned char>(text[i + 1])) &&
               text[i + 1] != ',' && text[i + 1] != '}' && text[i + 1] != ']')
            ++i;
    }
    return where;
}

}  // namespace perfgate::gates::detail
