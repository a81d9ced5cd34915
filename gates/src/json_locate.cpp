#include "json_locate.hpp"

#include <cctype>
#include <vector>

namespace perfgate::gates::detail {
namespace {

struct Frame {
    bool is_array = false;
    std::string pointer;
    std::size_t next_index = 0;
    std::string pending_key;
};

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

std::unordered_map<std::string, std::size_t> locate_json_values(std::string_view text) {
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
                    raw += text[j + 1];  // good enough for key names; values are not decoded
                    j += 2;
                    continue;
                }
                raw += text[j++];
            }
            if (expect_key) {
                stack.back().pending_key = pointer_token(raw);
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
            stack.push_back(Frame{c == '[', ptr, 0, {}});
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
