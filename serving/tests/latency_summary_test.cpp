// The serving figures from request records: percentiles as numpy computes them (the numbers below
// are numpy.percentile's), TPOT per request, throughput over the wall time, failures apart.
#include <catch2/catch.hpp>

#include "perfgate/core/stats.hpp"
#include "perfgate/serving/latency_summary.hpp"

using namespace perfgate;
using namespace perfgate::serving;

TEST_CASE("quantile interpolates between the closest ranks, as numpy's default", "[serving][summary]") {
    const std::vector<double> v = {7, 1, 3, 10, 2, 9, 4, 8, 6, 5};
    CHECK(quantile(v, 0.5) == Approx(5.5));
    CHECK(quantile(v, 0.9) == Approx(9.1));
    CHECK(quantile(v, 0.99) == Approx(9.91));
    CHECK(quantile(v, 0.0) == Approx(1.0));
    CHECK(quantile(v, 1.0) == Approx(10.0));
    CHECK(quantile({42.0}, 0.99) == Approx(42.0));
    CHECK_THROWS_AS(quantile({}, 0.5), std::invalid_argument);
    CHECK_THROWS_AS(quantile(v, 1.5), std::invalid_argument);
}

TEST_CASE("summary: latencies in ms, TPOT per request, throughput over the wall time", "[serving][summary]") {
    LoadResult load;
    load.wall_s = 2.0;
    auto ok = [](double ttft, double e2e, std::vector<double> itl, std::int64_t tokens) {
        RequestRecord r;
        r.ok = true;
        r.ttft_s = ttft;
        r.e2e_s = e2e;
        r.itl_s = std::move(itl);
        r.output_tokens = r.token_events = tokens;
        return r;
    };
    load.records = {ok(0.1, 0.5, {0.1, 0.1, 0.2, 0.0}, 5), ok(0.3, 0.9, {0.2, 0.2, 0.2}, 4)};
    load.records[0].server = ServerTimings{3, 80.0, 5, 400.0};  // the server spent 480 of its 500 ms
    RequestRecord failed;
    failed.error = "HTTP 503";
    load.records.push_back(failed);
    load.records.push_back(failed);
    const auto s = summarize(load);
    CHECK(s.requests == 4);
    CHECK(s.failed == 2);
    CHECK(s.errors == std::vector<std::string>{"HTTP 503"});
    REQUIRE(s.ttft_ms);
    CHECK(s.ttft_ms->p50 == Approx(200.0));
    CHECK(s.ttft_ms->p99 == Approx(298.0));
    REQUIRE(s.tpot_ms);  // (0.5 - 0.1) / 4 = 100 ms and (0.9 - 0.3) / 3 = 200 ms
    CHECK(s.tpot_ms->p50 == Approx(150.0));
    REQUIRE(s.itl_ms);  // 0, 100, 100, 200, 200, 200, 200 ms
    CHECK(s.itl_ms->p50 == Approx(200.0));
    CHECK(s.itl_ms->p90 == Approx(200.0));
    CHECK(s.e2e_ms->p50 == Approx(700.0));
    CHECK(s.output_tok_s == Approx(4.5));  // 9 tokens in 2 s
    CHECK(s.request_s == Approx(1.0));     // 2 requests that ended well in 2 s
    REQUIRE(s.beyond_server_ms);           // only the request with the server's timings
    CHECK(s.beyond_server_ms->p50 == Approx(20.0));
}

TEST_CASE("summary: a load where every request failed has no latency", "[serving][summary]") {
    LoadResult load;
    load.wall_s = 1.0;
    RequestRecord failed;
    failed.error = "connection refused";
    load.records = {failed};
    const auto s = summarize(load);
    CHECK(s.failed == 1);
    CHECK_FALSE(s.ttft_ms);
    CHECK_FALSE(s.itl_ms);
    CHECK(s.output_tok_s == 0);
}
