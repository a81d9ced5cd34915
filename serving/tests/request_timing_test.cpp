// One request's figures by vLLM's definitions, from a real llama-server stream recorded with each
// event's arrival time (data/llama-server-stream.json), the expected numbers worked by hand from
// the recorded times: vLLM's TTFT, ITL and latency, and TPOT as its summary takes it.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "perfgate/serving/latency_summary.hpp"
#include "perfgate/serving/request_timing.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate::serving;

namespace {

RequestRecord replay(const nlohmann::json& events) {
    RequestTiming timing;
    for (const auto& e : events) timing.on_event(e["data"].get<std::string>(), e["at_s"].get<double>());
    return std::move(timing).finish();
}

}  // namespace

TEST_CASE("a recorded llama-server stream gives vLLM's TTFT, ITL, TPOT and end-to-end latency", "[serving][timing]") {
    const auto doc = nlohmann::json::parse(
        perfgate::test::read_file(perfgate::test::source_path("serving/tests/data/llama-server-stream.json")));
    const auto& events = doc["events"];
    // Six tokens, then llama-server's last chunk (choices with an empty text, finish_reason, usage
    // and timings), then [DONE]: the recording as the server sent it.
    REQUIRE(events.size() == 8);
    REQUIRE(events[6]["data"].get<std::string>().find("\"text\":\"\"") != std::string::npos);
    REQUIRE(events[7]["data"] == "[DONE]");

    const RequestRecord r = replay(events);
    REQUIRE(r.ok);
    // TTFT: the first event with a choice, 9.777 ms after the request started.
    CHECK(r.ttft_s == Approx(0.009777).margin(1e-12));
    // ITL: every gap between events with a choice, the last chunk's included (vLLM counts it):
    // 12.432 - 9.777, 12.568 - 12.432, 13.784 - 12.568, 15.046 - 13.784, 16.262 - 15.046,
    // 16.466 - 16.262 ms.
    const std::vector<double> itl = {0.002655, 0.000136, 0.001216, 0.001262, 0.001216, 0.000204};
    REQUIRE(r.itl_s.size() == itl.size());
    for (std::size_t i = 0; i < itl.size(); ++i) CHECK(r.itl_s[i] == Approx(itl[i]).margin(1e-9));
    // End-to-end: the last event with a choice (16.466 ms), not the stream's end.
    CHECK(r.e2e_s == Approx(0.016466).margin(1e-12));
    CHECK(r.token_events == 7);
    CHECK(r.output_tokens == 6);  // usage.completion_tokens
    REQUIRE(r.server);
    CHECK(r.server->predicted_n == 6);

    // TPOT, per request: (16.466 - 9.777) / (6 - 1) = 1.3378 ms.
    LoadResult load;
    load.records = {r};
    load.wall_s = 0.016466;
    const ServingSummary s = summarize(load);
    REQUIRE(s.tpot_ms);
    CHECK(s.tpot_ms->p50 == Approx(1.3378).margin(1e-9));
    REQUIRE(s.ttft_ms);
    CHECK(s.ttft_ms->p50 == Approx(9.777).margin(1e-9));
    REQUIRE(s.e2e_ms);
    CHECK(s.e2e_ms->p99 == Approx(16.466).margin(1e-9));
    // ITL percentiles over the six gaps, numpy's interpolation: sorted 0.136, 0.204, 1.216, 1.216,
    // 1.262, 2.655 ms; p50 at rank 2.5 = 1.216, p90 at rank 4.5 = 1.262 + 0.5 * 1.393 = 1.9585.
    REQUIRE(s.itl_ms);
    CHECK(s.itl_ms->p50 == Approx(1.216).margin(1e-9));
    CHECK(s.itl_ms->p90 == Approx(1.9585).margin(1e-9));
    // Output tokens per second over the load's wall time: 6 / 0.016466 s.
    CHECK(s.output_tok_s == Approx(6 / 0.016466));
}

TEST_CASE("a usage chunk without choices and the stream's end are not tokens", "[serving][timing]") {
    // vLLM's own server ends with {"choices": [], "usage": ...} and [DONE]: the latency ends at the
    // last token, 0.2 s, not at the usage chunk 50 ms later.
    RequestTiming timing;
    timing.on_event(R"({"choices": [{"text": "a"}]})", 0.10);
    timing.on_event(R"({"choices": [{"text": ""}]})", 0.15);  // a special token: no text, still a token
    timing.on_event(R"({"choices": [{"text": "b"}]})", 0.20);
    timing.on_event(R"({"choices": [], "usage": {"completion_tokens": 3}})", 0.25);
    timing.on_event("[DONE]", 0.25);
    const RequestRecord r = std::move(timing).finish();
    REQUIRE(r.ok);
    CHECK(r.ttft_s == Approx(0.10));
    REQUIRE(r.itl_s.size() == 2);
    CHECK(r.itl_s[0] == Approx(0.05));
    CHECK(r.itl_s[1] == Approx(0.05));
    CHECK(r.e2e_s == Approx(0.20));
    CHECK(r.output_tokens == 3);
}

TEST_CASE("without usage, the output tokens are the events that carried text", "[serving][timing]") {
    // The last chunk (finish_reason, no text) is a token event for the latencies, as vLLM has it,
    // but no token of the output: two tokens, not three.
    RequestTiming timing;
    timing.on_event(R"({"choices": [{"text": "a"}]})", 0.10);
    timing.on_event(R"({"choices": [{"text": "b"}]})", 0.15);
    timing.on_event(R"({"choices": [{"text": "", "finish_reason": "length"}]})", 0.16);
    timing.on_event("[DONE]", 0.16);
    const RequestRecord r = std::move(timing).finish();
    REQUIRE(r.ok);
    CHECK(r.token_events == 3);
    CHECK(r.output_tokens == 2);
    CHECK(r.e2e_s == Approx(0.16));
}

TEST_CASE("a request's timing: no token, a bad event, an error before the stream ended", "[serving][timing]") {
    {
        RequestTiming timing;
        timing.on_event(R"({"choices": [], "usage": {"completion_tokens": 0}})", 0.1);
        timing.on_event("[DONE]", 0.1);
        const auto r = std::move(timing).finish();
        CHECK_FALSE(r.ok);
        CHECK(r.error == "the stream ended without a token");
    }
    {
        RequestTiming timing;
        timing.on_event(R"({"choices": [{"text": "a"}]})", 0.1);
        timing.on_event(R"({"error": {"message": "out of memory"}})", 0.2);
        timing.on_event(R"({"choices": [{"text": "b"}]})", 0.3);  // ignored after the error
        const auto r = std::move(timing).finish();
        CHECK_FALSE(r.ok);
        CHECK(r.error.find("out of memory") != std::string::npos);
        CHECK(r.itl_s.empty());
    }
    {
        RequestTiming timing;
        timing.on_event(R"({"choices": [{"text": "a"}]})", 0.1);
        const auto r = std::move(timing).finish("HTTP 503");
        CHECK_FALSE(r.ok);
        CHECK(r.error == "HTTP 503");
    }
}
