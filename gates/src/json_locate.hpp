#pragma once
// nlohmann::json keeps no source positions, so validation errors about a value (not a syntax error)
// find its byte offset with this small structural scan of the already-valid text.
#include <string>
#include <string_view>
#include <unordered_map>

namespace perfgate::gates::detail {

// Maps JSON pointers ("/overrides/0/max_drop") to the byte offset where that value starts; the
// pointer of an object member also covers its key ("/metrics/decode_tok_s" starts at the value).
std::unordered_map<std::string, std::size_t> locate_json_values(std::string_view valid_json);

}  // namespace perfgate::gates::detail
