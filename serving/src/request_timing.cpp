#include "perfgate/serving/request_timing.hpp"

#include "perfgate/serving/completion_chunk.hpp"

namespace perfgate::serving {

void RequestTiming::on_event(std::string_view data, double at_s) {
    if (!error_.empty()) return;
    auto chunk = parse_completion_chunk(data);
    if (!chunk) {
        error_ = chunk.error().message;
        return;
    }
    if (chunk->completion_tokens) record_.output_tokens = *chunk->completion_tokens;
    if (chunk->timings) record_.server = chunk->timings;
    if (!chunk->has_choice) return;
    if (!chunk->text.empty()) ++text_events_;
    if (last_token_s_) record_.itl_s.push_back(at_s - *last_token_s_);
    else record_.ttft_s = at_s;
    last_token_s_ = at_s;
    record_.e2e_s = at_s;
    ++record_.token_events;
}

RequestRecord RequestTiming::finish(std::string error) && {
    RequestRecord record = std::move(record_);
    if (!error.empty()) {
        record.error = std::move(error);
        return record;
    }
    if (!error_.empty()) record.error = error_;
    else if (record.token_events == 0) record.error = "the stream ended without a token";
    record.ok = record.error.empty();
    if (record.output_tokens == 0) record.output_tokens = text_events_;
    return record;
}

}  // namespace perfgate::serving
