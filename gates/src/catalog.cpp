#include "perfgate/gates/catalog.hpp"

#include <fstream>
#include <sstream>

#include "perfgate/core/text.hpp"

namespace perfgate::gates {

const std::string& ModelCatalog::canonical(const std::string& name) const {
    auto it = to_canonical_.find(name);
    return it == to_canonical_.end() ? name : it->second;
}

std::vector<std::string> ModelCatalog::spellings(const std::string& name) const {
    auto it = names_of_.find(canonical(name));
    if (it == names_of_.end()) return {name};
    return it->second;
}

void ModelCatalog::add(const std::string& local_name, const std::vector<std::string>& aliases) {
    auto& names = names_of_[local_name];
    auto remember = [&](const std::string& n) {
        to_canonical_[n] = local_name;
        for (const auto& known : names)
            if (known == n) return;
        names.push_back(n);
    };
    remember(local_name);
    for (const auto& a : aliases)
        if (!a.empty()) remember(a);
}

Expected<ModelCatalog> parse_model_catalog(std::string_view text, const std::string& name) {
    ModelCatalog catalog;
    std::size_t line_no = 0, name_col = 0, alias_col = 0;
    bool have_header = false;
    std::unordered_map<std::string, std::pair<std::string, std::size_t>> claimed;  // name -> (local_name, line)
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        auto line = text.substr(start, end - start);
        start = end + 1;
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;
        auto cols = split(line, '\t');
        if (!have_header) {
            bool found_name = false, found_alias = false;
            for (std::size_t i = 0; i < cols.size(); ++i) {
                if (cols[i] == "local_name") name_col = i, found_name = true;
                if (cols[i] == "aliases") alias_col = i, found_alias = true;
            }
            if (!found_name || !found_alias)
                return make_error(name + ":" + std::to_string(line_no) +
                                  ": catalog header needs tab-separated \"local_name\" and \"aliases\" columns");
            have_header = true;
            continue;
        }
        if (cols.size() <= name_col || trim(cols[name_col]).empty())
            return make_error(name + ":" + std::to_string(line_no) + ": row without a local_name");
        const std::string local_name(trim(cols[name_col]));
        std::vector<std::string> aliases;
        if (cols.size() > alias_col)
            for (auto a : split(cols[alias_col], ';')) aliases.emplace_back(trim(a));
        // A name claimed by two models would resolve to one of them while still listed as a
        // spelling of the other: refuse the ambiguity instead of pairing rows of different models.
        std::vector<std::string> names{local_name};
        for (const auto& a : aliases)
            if (!a.empty()) names.push_back(a);
        for (const auto& n : names) {
            const auto [it, fresh] = claimed.emplace(n, std::make_pair(local_name, line_no));
            if (!fresh && it->second.first != local_name)
                return make_error(name + ":" + std::to_string(line_no) + ": \"" + n + "\" already names \"" +
                                  it->second.first + "\" (line " + std::to_string(it->second.second) + ")");
        }
        catalog.add(local_name, aliases);
    }
    if (!have_header) return make_error(name + ":1: empty catalog");
    return catalog;
}

Expected<ModelCatalog> read_model_catalog(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(path + ": cannot open the model catalog");
    std::ostringstream buf;
    buf << in.rdbuf();
    return parse_model_catalog(buf.str(), path);
}

}  // namespace perfgate::gates
