#include "perfgate/serving/completion_chunk.hpp"

#include <fmt/format.h>

#include <cstdint>

#include <nlohmann/json.hpp>

#include "perfgate/core/json_input.hpp"
#include "perfgate/core/text.hpp"

namespace perfgate::serving {
namespace {

using Json = nlohmann::json;

std::optional<double> number_at(const Json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}

// A count: a whole number from 0 up (a float, a negative or a huge number is no count, and
// converting 1e300 to an integer would be undefined).
std::optional<std::int64_t> count_at(const Json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer()) return std::nullopt;
    if (it->is_number_unsigned()) {
        const auto u = it->get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
        return static_cast<std::int64_t>(u);
    }
    const auto v = it->get<std::int64_t>();
    return v >= 0 ? std::optional<std::int64_t>(v) : std::nullopt;
}

std::optional<ServerTimings> timings_of(const Json& doc) {
    auto it = doc.find("timings");
    if (it == doc.end() || !it->is_object()) return std::nullopt;
    const auto pn = count_at(*it, "prompt_n"), dn = count_at(*it, "predicted_n");
    const auto pm = number_at(*it, "prompt_ms"), dm = number_at(*it, "predicted_ms");
    if (!pn || !pm || !dn || !dm || *pm < 0 || *dm < 0) return std::nullopt;
    return ServerTimings{*pn, *pm, *dn, *dm};
}

}  // namespace

Expected<CompletionChunk> parse_completion_chunk(std::string_view data) {
    CompletionChunk chunk;
    if (trim(data) == "[DONE]") {
        chunk.done = true;
        return chunk;
    }
    // Under core's nesting bound: a server's event of 100,000 nested arrays crashed the load
    // generator (issue 48 item 11), in the parse's recursion or the error's dump().
    const auto parsed = parse_json_value(data);
    const std::string excerpt = printable_excerpt(data, 120);
    if (!parsed) return make_error(fmt::format("a stream event that is not a JSON object ({}): {}", parsed.error().message, excerpt));
    const Json& doc = *parsed;
    if (!doc.is_object()) return make_error(fmt::format("a stream event that is not a JSON object: {}", excerpt));
    if (auto err = doc.find("error"); err != doc.end()) {
        const auto message = err->is_object() && err->contains("message") && (*err)["message"].is_string()
                                 ? (*err)["message"].get<std::string>()
                                 : err->dump();
        return make_error(fmt::format("the server streamed an error: {}", printable_excerpt(message, 200)));
    }
    auto choices = doc.find("choices");
    if (choices == doc.end() || !choices->is_array())
        return make_error(fmt::format("a stream event without \"choices\": {}", excerpt));
    if (!choices->empty()) {
        chunk.has_choice = true;
        const Json& c = choices->front();
        if (auto t = c.find("text"); t != c.end() && t->is_string()) chunk.text = t->get<std::string>();
        if (auto d = c.find("delta"); d != c.end() && d->is_object())
            if (auto t = d->find("content"); t != d->end() && t->is_string()) chunk.text = t->get<std::string>();
        if (auto f = c.find("finish_reason"); f != c.end() && f->is_string()) chunk.finish_reason = f->get<std::string>();
    }
    if (auto u = doc.find("usage"); u != doc.end() && u->is_object())
        if (auto n = count_at(*u, "completion_tokens")) chunk.completion_tokens = *n;
    chunk.timings = timings_of(doc);
    return chunk;
}

}  // namespace perfgate::serving
