#pragma once
// std::optional as JSON: an empty optional is null, a set one is its value. nlohmann_json 3.11.2
// (Debian 12) has no conversion of its own for std::optional, and perfgate's JSON outputs (the
// probe's host facts, the run's host context) write every unknown fact as null rather than leave
// its key out, so scripts can rely on the key being there.
#include <optional>

#include <nlohmann/json.hpp>

namespace nlohmann {

template <class T>
struct adl_serializer<std::optional<T>> {
    static void to_json(json& j, const std::optional<T>& value) {
        if (value) j = *value;
        else j = nullptr;
    }
    static void from_json(const json& j, std::optional<T>& value) {
        if (j.is_null()) value.reset();
        else value = j.get<T>();
    }
};

}  // namespace nlohmann
