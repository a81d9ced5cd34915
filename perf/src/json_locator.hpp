#pragma once
// nlohmann::json keeps no source positions, so the manifest is read a second time with a SAX
// handler that records the line of every value under its JSON pointer ("/models/2/name").
#include <map>
#include <string>

namespace perfgate::perf::detail {

class JsonLines {
public:
    explicit JsonLines(const std::string& text);
    // Line of the value at `pointer`, or of its nearest recorded ancestor; 1 when unknown.
    int line_of(std::string pointer) const;

private:
    std::map<std::string, int> lines_;
};

}  // namespace perfgate::perf::detail
