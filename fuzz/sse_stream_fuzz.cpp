// A streamed completion as a server sends it (serving/sse.hpp, completion_chunk.hpp): the body is
// cut into pieces of a size the input's first byte picks, and the events must come out the same as
// from the whole body; each event is parsed as a chunk, which is either a chunk or an error that
// says something.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "perfgate/serving/completion_chunk.hpp"
#include "perfgate/serving/sse.hpp"

using perfgate::fuzz::check;

namespace {

std::vector<std::string> events(std::string_view body, std::size_t piece) {
    std::vector<std::string> out;
    perfgate::serving::SseParser parser([&out](std::string_view data) { out.emplace_back(data); });
    for (std::size_t at = 0; at < body.size(); at += piece) parser.feed(body.substr(at, piece));
    parser.finish();
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::size_t piece = 1 + data[0] % 17;
    const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
    const auto whole = events(body, body.size() + 1);
    check(events(body, piece) == whole, "the events do not depend on how the body arrives");
    for (const auto& e : whole) {
        auto chunk = perfgate::serving::parse_completion_chunk(e);
        if (!chunk) check(!chunk.error().message.empty(), "an error says something");
        else if (chunk->completion_tokens) check(*chunk->completion_tokens >= 0, "a token count is not negative");
    }
    return 0;
}
