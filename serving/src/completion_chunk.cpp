#include "perfgate/serving/completion_chunk.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "perfgate/core/text.hpp"

namespace perfgate::serving {
namespace {

using Json = nlohmann::json;

std::optional<double> number_at(const Json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}

std::optional<ServerTimings> timings_of(const Json& doc) {
    auto it = doc.find("timings");
    if (it == doc.end() || !it->is_object()) return std::nullopt;
    const auto pn = number_at(*it, "prompt_n"), pm = number_at(*it, "prompt_ms");
    const auto dn = number_at(*it, "predicted_n"), dm = number_at(*it, "predicted_ms");
    if (!pn || !pm || !dn || !dm) return std::nullopt;
    return ServerTimings{static_cast<std::int64_t>(*pn), *pm, static_cast<std::int64_t>(*dn), *dm};
}

}  // namespace

Expected<CompletionChunk> parse_completion_chunk(std::string_view data) {
    CompletionChunk chunk;
    if (trim(data) == "[DONE]") {
        chunk.done = true;
        return chunk;
    }
    const Json doc = Json::parse(data, nullptr, false);
    const std::string excerpt = printable_excerpt(data, 120);
    if (doc.is_discarded() || !doc.is_object()) return make_error(fmt::format("a stream event that is not a JSON object: {}", excerpt));
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
        const Json& c = choices->front();
        if (auto t = c.find("text"); t != c.end() && t->is_string()) chunk.text = t->get<std::string>();
        if (auto d = c.find("delta"); d != c.end() && d->is_object())
            if (auto t = d->find("content"); t != d->end() && t->is_string()) chunk.text = t->get<std::string>();
        if (auto f = c.find("finish_reason"); f != c.end() && f->is_string()) chunk.finish_reason = f->get<std::string>();
    }
    if (auto u = doc.find("usage"); u != doc.end() && u->is_object())
        if (auto n = number_at(*u, "completion_tokens")) chunk.completion_tokens = static_cast<std::int64_t>(*n);
    chunk.timings = timings_of(doc);
    return chunk;
}

}  // namespace perfgate::serving
