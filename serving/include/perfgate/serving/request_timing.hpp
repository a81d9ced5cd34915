#pragma once
// One streamed request's figures from the arrival time of each of its server-sent events, by the
// definitions of vLLM's serving benchmark (`vllm bench serve`), so that a team's perfgate numbers
// and its vLLM numbers of the same stream are the same numbers (docs/serving.md, "The figures"):
//   - the clock starts when the request starts, before the connect (vLLM starts it before its POST);
//   - a token event is every event with a non-empty "choices", whatever its text (an empty text is
//     a special token, or llama-server's last chunk that carries finish_reason and usage);
//   - TTFT is the first token event's time, ITL each gap between consecutive token events, and the
//     end-to-end latency the last token event's time: neither [DONE] nor a usage-only chunk
//     without choices is a token, so the stream's tail after the last token is not latency.
// Output tokens are the server's usage.completion_tokens wherever it sends them, else the events
// that carried text (a last chunk that only says finish_reason is no token of the output). (vLLM
// reads usage only from a chunk without choices and otherwise counts the text's tokens with the
// model's tokenizer; perfgate has no tokenizer, and with ignore_eos the server's count is the
// request's max_tokens.)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/serving/load_generator.hpp"

namespace perfgate::serving {

class RequestTiming {
public:
    // One event's data (after "data: "), `at_s` seconds after the request started. The first
    // event that is not a completion chunk (completion_chunk.hpp: not JSON, no "choices", the
    // server's {"error": ...}) fails the request; later events are ignored.
    void on_event(std::string_view data, double at_s);

    // The record of the request whose stream ended: ok when it carried a token event and no error.
    // `error` is what ended the request before its stream did (a connection, an HTTP status, the
    // deadline), empty when the stream ended.
    RequestRecord finish(std::string error = {}) &&;

private:
    RequestRecord record_;
    std::optional<double> last_token_s_;
    std::int64_t text_events_ = 0;
    std::string error_;
};

}  // namespace perfgate::serving
