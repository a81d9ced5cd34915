// The model catalog (tab-separated local_name / aliases): after parsing, names resolve
// consistently — a canonical name resolves to itself, and every spelling of a name resolves to
// the same canonical name — so rows recorded under renamed directories pair with each other.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "fuzz_check.hpp"
#include "perfgate/gates/catalog.hpp"

using perfgate::fuzz::check;
using perfgate::fuzz::names_file_and_line;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::string name = "docs/model-catalog.tsv";
    auto catalog = perfgate::gates::parse_model_catalog(text, name);
    if (!catalog) {
        check(names_file_and_line(catalog.error().message, name, text), "catalog error names file:line", catalog.error().message);
        return 0;
    }
    // Every cell and alias of the input is a name worth asking about.
    std::set<std::string> names;
    std::string cur;
    for (char c : text) {
        if (c == '\t' || c == '\n' || c == ';') {
            while (!cur.empty() && (cur.back() == ' ' || cur.back() == '\r')) cur.pop_back();
            const auto b = cur.find_first_not_of(' ');
            if (b != std::string::npos) names.insert(cur.substr(b));
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    names.insert(cur);
    for (const auto& n : names) {
        const std::string canon = catalog->canonical(n);
        check(catalog->canonical(canon) == canon, "a canonical name resolves to itself", n);
        const auto spellings = catalog->spellings(n);
        bool has_self = false;
        for (const auto& s : spellings) {
            check(catalog->canonical(s) == canon, "every spelling resolves to the same canonical name", n + " / " + s);
            has_self = has_self || s == n;
        }
        check(has_self, "a name is one of its own spellings", n);
    }
    return 0;
}
