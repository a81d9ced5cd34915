#include "perfgate/core/json_fields.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace perfgate {

using nlohmann::json;

std::string json_pointer_child(std::string_view pointer, std::string_view key) {
    return std::string(pointer) + "/" + json_pointer_token(key);
}

void JsonFields::fail(std::string_view pointer, std::string_view what) {
    if (!error_) error_ = doc_.error(pointer, what);
}

void JsonFields::only_keys(const json& object, std::string_view pointer, std::span<const std::string_view> known,
                           std::string_view context) {
    for (const auto& [key, value] : object.items()) {
        if (std::find(known.begin(), known.end(), key) != known.end()) continue;
        fail(json_pointer_child(pointer, key),
             fmt::format("unknown key \"{}\" in {} (allowed: {})", key, context, fmt::join(known, ", ")));
    }
}

const json* JsonFields::find(const json& object, std::string_view pointer, const char* key, Need need) {
    auto it = object.find(key);
    if (it != object.end()) return &*it;
    if (need == Need::required) fail(pointer, fmt::format("missing \"{}\"", key));
    return nullptr;
}

std::optional<std::string> JsonFields::string(const json& object, std::string_view pointer, const char* key, Need need) {
    const json* v = find(object, pointer, key, need);
    if (!v) return std::nullopt;
    if (!v->is_string()) {
        fail(json_pointer_child(pointer, key), fmt::format("\"{}\" must be a string", key));
        return std::nullopt;
    }
    return v->get<std::string>();
}

std::optional<double> JsonFields::number(const json& object, std::string_view pointer, const char* key) {
    const json* v = find(object, pointer, key, Need::optional);
    if (!v) return std::nullopt;
    if (!v->is_number()) {
        fail(json_pointer_child(pointer, key), fmt::format("\"{}\" must be a number", key));
        return std::nullopt;
    }
    return v->get<double>();
}

std::optional<double> JsonFields::number_in(const json& object, std::string_view pointer, const char* key, double min,
                                            double max) {
    const json* v = find(object, pointer, key, Need::optional);
    if (!v) return std::nullopt;
    if (!v->is_number() || v->get<double>() < min || v->get<double>() > max) {
        fail(json_pointer_child(pointer, key), fmt::format("\"{}\" must be a number from {} to {}", key, min, max));
        return std::nullopt;
    }
    return v->get<double>();
}

namespace {

// An unsigned value above INT64_MAX would turn negative as an int64, so it is refused as such.
bool whole_at_least(const json& v, std::int64_t min) {
    const bool fits = v.is_number_integer() &&
                      (!v.is_number_unsigned() || v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX));
    return fits && v.get<std::int64_t>() >= min;
}

}  // namespace

std::optional<std::int64_t> JsonFields::integer(const json& object, std::string_view pointer, const char* key,
                                                std::int64_t min, Need need) {
    const json* v = find(object, pointer, key, need);
    if (!v) return std::nullopt;
    if (!whole_at_least(*v, min)) {
        fail(json_pointer_child(pointer, key), fmt::format("\"{}\" must be an integer >= {}", key, min));
        return std::nullopt;
    }
    return v->get<std::int64_t>();
}

std::optional<std::uint64_t> JsonFields::unsigned_integer(const json& object, std::string_view pointer, const char* key,
                                                          std::uint64_t min, Need need) {
    const json* v = find(object, pointer, key, need);
    if (!v) return std::nullopt;
    if (!v->is_number_unsigned() || v->get<std::uint64_t>() < min) {
        fail(json_pointer_child(pointer, key), fmt::format("\"{}\" must be an integer >= {}", key, min));
        return std::nullopt;
    }
    return v->get<std::uint64_t>();
}

std::optional<bool> JsonFields::boolean(const json& object, std::string_view pointer, const char* key) {
    const json* v = find(object, pointer, key, Need::optional);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) {
        fail(json_pointer_child(pointer, key), fmt::format("\"{}\" must be true or false", key));
        return std::nullopt;
    }
    return v->get<bool>();
}

std::vector<std::string> JsonFields::strings(const json& object, std::string_view pointer, const char* key) {
    std::vector<std::string> out;
    const json* v = find(object, pointer, key, Need::optional);
    if (!v) return out;
    const std::string at = json_pointer_child(pointer, key);
    if (!v->is_array()) {
        fail(at, fmt::format("\"{}\" must be an array of strings", key));
        return out;
    }
    for (std::size_t i = 0; i < v->size(); ++i) {
        if (!(*v)[i].is_string()) fail(at + "/" + std::to_string(i), "expected a string");
        else out.push_back((*v)[i].get<std::string>());
    }
    return out;
}

std::vector<std::int64_t> JsonFields::integers(const json& object, std::string_view pointer, const char* key,
                                                std::int64_t min) {
    std::vector<std::int64_t> out;
    const json* v = find(object, pointer, key, Need::optional);
    if (!v) return out;
    const std::string at = json_pointer_child(pointer, key);
    if (!v->is_array()) {
        fail(at, fmt::format("\"{}\" must be an array of integers", key));
        return out;
    }
    for (std::size_t i = 0; i < v->size(); ++i) {
        if (!whole_at_least((*v)[i], min)) fail(at + "/" + std::to_string(i), fmt::format("expected an integer >= {}", min));
        else out.push_back((*v)[i].get<std::int64_t>());
    }
    return out;
}

}  // namespace perfgate
