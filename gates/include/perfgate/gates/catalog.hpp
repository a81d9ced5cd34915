#pragma once
// The model alias catalog (mlxcel's docs/model-catalog.tsv): every local_name maps to itself and each
// of its ';'-separated aliases maps to the local_name, so rows of renamed directories still pair.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::gates {

class ModelCatalog {
public:
    // The canonical name of a model: its catalog local_name, or the name itself when unknown.
    const std::string& canonical(const std::string& name) const;
    // Every spelling that resolves to the same canonical name (the name itself included).
    std::vector<std::string> spellings(const std::string& name) const;
    std::size_t size() const { return to_canonical_.size(); }

    void add(const std::string& local_name, const std::vector<std::string>& aliases);

private:
    std::unordered_map<std::string, std::string> to_canonical_;
    std::unordered_map<std::string, std::vector<std::string>> names_of_;
};

// Parses the tab-separated catalog; the header must have "local_name" and "aliases" columns.
Expected<ModelCatalog> parse_model_catalog(std::string_view text, const std::string& name);
Expected<ModelCatalog> read_model_catalog(const std::string& path);

}  // namespace perfgate::gates
