#pragma once
// nlohmann::json keeps no source positions, so validation errors about a value (not a syntax error)
// find its byte offset with this small structural scan of the already-valid text.
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace perfgate::gates::detail {

// A member name that appears twice in one object: nlohmann keeps the last silently, so a file
// could say one thing on top and the opposite below.
struct DuplicateKey {
    std::string pointer;  // of the second occurrence ("/metrics/decode_tok_s")
    std::size_t offset;   // where its key starts
};

// Maps JSON pointers ("/overrides/0/max_drop") to the byte offset where that value starts; the
// pointer of an object member also covers its key ("/metrics/decode_tok_s" starts at the value).
// When `duplicate` is given, the first repeated member name (compared after decoding escapes) is
// stored there.
std::unordered_map<std::string, std::size_t> locate_json_values(std::string_view valid_json,
                                                                std::optional<DuplicateKey>* duplicate = nullptr);

}  // namespace perfgate::gates::detail
