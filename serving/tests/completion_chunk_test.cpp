// Stream events of OpenAI-compatible servers, in the forms llama-server, vLLM and SGLang send
// (written here to their documented shapes): text and chat deltas, the last chunk's usage and
// llama-server's timings, the [DONE] sentinel, and what is refused with a message.
#include <catch2/catch.hpp>

#include <string>

#include "perfgate/serving/completion_chunk.hpp"

using namespace perfgate::serving;

TEST_CASE("completion chunk: text, chat delta, usage, timings and the end of the stream", "[serving][chunk]") {
    auto text = parse_completion_chunk(
        R"({"choices":[{"text":" the","index":0,"logprobs":null,"finish_reason":null}],"created":1764800000,)"
        R"("model":"tiny","object":"text_completion","id":"cmpl-1"})");
    REQUIRE(text);
    CHECK(text->text == " the");
    CHECK_FALSE(text->finish_reason);
    CHECK_FALSE(text->done);

    auto chat = parse_completion_chunk(R"({"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}],"object":"chat.completion.chunk"})");
    REQUIRE(chat);
    CHECK(chat->text == "Hi");

    auto last = parse_completion_chunk(
        R"({"choices":[{"text":"","index":0,"finish_reason":"length"}],"usage":{"completion_tokens":16,"prompt_tokens":5,"total_tokens":21},)"
        R"("timings":{"prompt_n":5,"prompt_ms":12.5,"prompt_per_token_ms":2.5,"predicted_n":16,"predicted_ms":150.0,"predicted_per_token_ms":9.375}})");
    REQUIRE(last);
    CHECK(last->text.empty());
    CHECK(last->finish_reason == "length");
    CHECK(last->completion_tokens == 16);
    REQUIRE(last->timings);
    CHECK(last->timings->prompt_n == 5);
    CHECK(last->timings->predicted_ms == Approx(150.0));

    // vLLM's usage-only chunk has an empty choices list.
    auto usage = parse_completion_chunk(R"({"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7}})");
    REQUIRE(usage);
    CHECK(usage->completion_tokens == 7);

    // What is no count is not taken for one (converting 1e300 to an integer would be undefined).
    auto odd = parse_completion_chunk(R"({"choices":[],"usage":{"completion_tokens":1e300},"timings":{"prompt_n":-3,"prompt_ms":1,"predicted_n":2,"predicted_ms":1}})");
    REQUIRE(odd);
    CHECK_FALSE(odd->completion_tokens);
    CHECK_FALSE(odd->timings);

    auto done = parse_completion_chunk(" [DONE] ");
    REQUIRE(done);
    CHECK(done->done);
}

TEST_CASE("completion chunk: what is not a chunk is refused, saying what it was", "[serving][chunk]") {
    auto not_json = parse_completion_chunk("{\"choices\": [");
    REQUIRE_FALSE(not_json);
    CHECK_THAT(not_json.error().message, Catch::Contains("not a JSON object"));
    auto error = parse_completion_chunk(R"({"error":{"code":500,"message":"context size exceeded","type":"server_error"}})");
    REQUIRE_FALSE(error);
    CHECK_THAT(error.error().message, Catch::Contains("context size exceeded"));
    // A hostile server's error of 100,000 nested arrays: an error, not a crash (issue 48 item 11).
    const std::string deep = "{\"error\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    auto nested = parse_completion_chunk(deep);
    REQUIRE_FALSE(nested);
    CHECK_THAT(nested.error().message, Catch::Contains("nested deeper than 64"));
    CHECK(nested.error().message.size() < 400);
    auto no_choices = parse_completion_chunk(R"({"object":"text_completion"})");
    REQUIRE_FALSE(no_choices);
    CHECK_THAT(no_choices.error().message, Catch::Contains("without \"choices\""));
}
