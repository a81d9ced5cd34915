#pragma once
// Values in order of first appearance, each once. A page lists the distinct dates, commands,
// devices... of up to hundreds of thousands of rows, so a hash set remembers what was seen:
// searching the list for every row made `perfgate report` quadratic in the number of models
// (hardening issue, item 7).
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "perfgate/core/result_row.hpp"

namespace perfgate::report::detail {

class OrderedUnique {
public:
    // Adds a non-empty value not seen before.
    void add(const std::string& value) {
        if (!value.empty() && seen_.insert(value).second) values_.push_back(value);
    }
    std::vector<std::string> take() { return std::move(values_); }

private:
    std::vector<std::string> values_;
    std::unordered_set<std::string> seen_;
};

template <class Get>
std::vector<std::string> distinct(const std::vector<const ResultRow*>& rows, const Get& get) {
    OrderedUnique out;
    for (const auto* r : rows) out.add(get(*r));
    return out.take();
}

}  // namespace perfgate::report::detail
