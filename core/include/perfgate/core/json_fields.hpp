#pragma once
// Reads typed fields of the objects of one parsed JSON input (json_input.hpp) and keeps the first
// problem as "<file>:<line>: <what>", so a reader can go on after a bad field and report once.
// Pointers name the object being read ("/runtimes/0"); a field's pointer is that plus its key.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/json_input.hpp"

namespace perfgate {

class JsonFields {
public:
    explicit JsonFields(const JsonDocument& doc) : doc_(doc) {}

    bool failed() const { return error_.has_value(); }
    // The first problem; only meaningful when failed().
    Error error() const { return error_.value_or(Error{}); }
    // Keeps `what` about the value at `pointer` unless an earlier problem was found.
    void fail(std::string_view pointer, std::string_view what);
    std::size_t line(std::string_view pointer) const { return doc_.lines.line_of(pointer); }
    std::string where(std::string_view pointer) const { return doc_.where(pointer); }

    // Rejects keys the schema does not know, so a typo is an error instead of a silent default:
    // `unknown key "modle" in <context> (allowed: ...)`; `context` is e.g. "/overrides/0" or "the suite".
    void only_keys(const nlohmann::json& object, std::string_view pointer, std::span<const std::string_view> known,
                   std::string_view context);
    void only_keys(const nlohmann::json& object, std::string_view pointer, std::initializer_list<std::string_view> known,
                   std::string_view context) {
        only_keys(object, pointer, std::span<const std::string_view>(known.begin(), known.size()), context);
    }

    // A field that is absent gives nullopt (a problem too when `required`); one of another type
    // gives nullopt and the problem `"key" must be ...`.
    enum class Need { optional, required };
    std::optional<std::string> string(const nlohmann::json& object, std::string_view pointer, const char* key,
                                      Need need = Need::optional);
    std::optional<double> number(const nlohmann::json& object, std::string_view pointer, const char* key);
    // A number within [min, max]; the message states the range.
    std::optional<double> number_in(const nlohmann::json& object, std::string_view pointer, const char* key, double min,
                                    double max);
    // A whole number >= min that fits an int64 (nlohmann reads large ones as unsigned).
    std::optional<std::int64_t> integer(const nlohmann::json& object, std::string_view pointer, const char* key,
                                        std::int64_t min, Need need = Need::optional);
    // A whole number >= min up to 2^64 - 1 (sizes and counts that may exceed an int64).
    std::optional<std::uint64_t> unsigned_integer(const nlohmann::json& object, std::string_view pointer, const char* key,
                                                  std::uint64_t min, Need need = Need::optional);
    std::optional<bool> boolean(const nlohmann::json& object, std::string_view pointer, const char* key);
    // An array of strings; absent gives an empty list.
    std::vector<std::string> strings(const nlohmann::json& object, std::string_view pointer, const char* key);
    // An array of whole numbers >= min; absent gives an empty list.
    std::vector<std::int64_t> integers(const nlohmann::json& object, std::string_view pointer, const char* key,
                                       std::int64_t min);

private:
    // The member `key` of `object`, or nullptr (with a problem when it is required).
    const nlohmann::json* find(const nlohmann::json& object, std::string_view pointer, const char* key, Need need);

    const JsonDocument& doc_;
    std::optional<Error> error_;
};

// "/runtimes/0" + "flags" -> "/runtimes/0/flags" (the key escaped as a pointer token).
std::string json_pointer_child(std::string_view pointer, std::string_view key);

}  // namespace perfgate
