// The SSE parser: events come out the same however the body is cut, as soon as their blank line
// arrives; CRLF, comments, other fields and multi-line data as the event-stream format has them.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "perfgate/serving/sse.hpp"

using perfgate::serving::SseParser;

namespace {

std::vector<std::string> events_of(const std::string& body, std::size_t piece) {
    std::vector<std::string> out;
    SseParser parser([&out](std::string_view data) { out.emplace_back(data); });
    for (std::size_t at = 0; at < body.size(); at += piece) parser.feed(std::string_view(body).substr(at, piece));
    parser.finish();
    return out;
}

}  // namespace

TEST_CASE("sse: events are the same whatever pieces the body arrives in", "[serving][sse]") {
    const std::string body = ": keep-alive\n\ndata: {\"a\":1}\n\nevent: message\nid: 7\ndata: {\"b\":2}\r\n\r\n"
                             "data: first line\ndata: second line\n\ndata: [DONE]\n\n";
    const std::vector<std::string> expected = {"{\"a\":1}", "{\"b\":2}", "first line\nsecond line", "[DONE]"};
    for (std::size_t piece : {1, 2, 3, 7, 64, 4096}) {
        INFO(piece);
        CHECK(events_of(body, piece) == expected);
    }
}

TEST_CASE("sse: an event is handed over when its blank line arrives, not later", "[serving][sse]") {
    std::vector<std::string> out;
    SseParser parser([&out](std::string_view data) { out.emplace_back(data); });
    parser.feed("data: one\n");
    CHECK(out.empty());
    parser.feed("\n");
    REQUIRE(out.size() == 1);
    CHECK(out[0] == "one");
    // A body that ends without the blank line still delivers its last event.
    parser.feed("data: last");
    parser.finish();
    REQUIRE(out.size() == 2);
    CHECK(out[1] == "last");
    // A field without a value, or other fields alone, make no event.
    parser.feed("retry: 10\n\n");
    parser.finish();
    CHECK(out.size() == 2);
}

TEST_CASE("sse: a line or an event beyond the bound stops the stream with an error, holding nothing", "[serving][sse]") {
    // Issue 48 item 13: one line of 1 GB was held whole (4.1 GB peak). Here the bound is 1 KiB.
    std::vector<std::string> out;
    SseParser parser([&out](std::string_view data) { out.emplace_back(data); }, 1024);
    parser.feed("data: small\n\n");
    REQUIRE(out.size() == 1);
    CHECK_FALSE(parser.error());
    const std::string chunk(100, 'x');
    for (int i = 0; i < 100; ++i) parser.feed("data: " + chunk);  // no line end: one line of 10 KB
    REQUIRE(parser.error());
    CHECK_THAT(*parser.error(), Catch::Contains("longer than"));
    parser.feed("\n\ndata: after\n\n");
    parser.finish();
    CHECK(out.size() == 1);  // nothing after the overflow is handed over

    // An event of many short data lines is bounded the same way.
    SseParser lines([&out](std::string_view data) { out.emplace_back(data); }, 1024);
    for (int i = 0; i < 20; ++i) lines.feed("data: " + chunk + "\n");
    CHECK(lines.error());
    lines.feed("\n");
    CHECK(out.size() == 1);
}
