#pragma once
// One event of an OpenAI-compatible streaming completion, as llama-server, vLLM and SGLang send
// it: {"choices": [{"text": ..., "finish_reason": ...}]} (completions) or
// {"choices": [{"delta": {"content": ...}}]} (chat completions), "usage" in the last chunk when
// asked for, llama-server's own "timings" in its last chunk, and "[DONE]" closing the stream.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/core/expected.hpp"

namespace perfgate::serving {

// What the server says it spent (llama-server's "timings"): the yardstick the load generator's
// own timings are checked against (docs/serving.md, "The load generator's overhead").
struct ServerTimings {
    std::int64_t prompt_n = 0;
    double prompt_ms = 0;
    std::int64_t predicted_n = 0;
    double predicted_ms = 0;
};

struct CompletionChunk {
    bool done = false;                         // the "[DONE]" sentinel
    bool has_choice = false;                   // "choices" holds an entry: a token, by vLLM's count
    std::string text;                          // the text this chunk adds (empty: none)
    std::optional<std::string> finish_reason;  // "length", "stop", ...
    std::optional<std::int64_t> completion_tokens;  // usage.completion_tokens
    std::optional<ServerTimings> timings;
};

// The chunk, or an error saying what is wrong with it (not JSON, no choices, the server's own
// {"error": ...} object, with its message).
Expected<CompletionChunk> parse_completion_chunk(std::string_view data);

}  // namespace perfgate::serving
