// The load generator against a server of known timing (fake_completion_server), started and
// stopped as a server under test is: what it measures can only be later than what the server
// waited (lower bounds hold on a busy machine; the upper bounds are loose), every request is
// accounted for, and the server's process group is gone after stop, after a failed start and
// after a start that never became ready.
#include <catch2/catch.hpp>

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <thread>

#include "perfgate/core/process.hpp"
#include "perfgate/core/stats.hpp"
#include "perfgate/serving/latency_summary.hpp"
#include "perfgate/serving/load_generator.hpp"
#include "perfgate/serving/server_process.hpp"

#include <nlohmann/json.hpp>

using namespace perfgate;
using namespace perfgate::serving;

namespace {

ServerLaunch fake(std::vector<std::string> extra = {}) {
    ServerLaunch launch;
    launch.program = PERFGATE_FAKE_COMPLETION_SERVER;
    launch.args = {"--port", "{port}"};
    launch.args.insert(launch.args.end(), extra.begin(), extra.end());
    launch.startup_timeout = std::chrono::seconds(20);
    return launch;
}

bool group_alive(std::int64_t group) { return ::kill(-static_cast<pid_t>(group), 0) == 0 || errno != ESRCH; }

}  // namespace

TEST_CASE("load: every request streamed and timed, no earlier than the server's waits", "[serving][load]") {
    auto server = start_server(fake({"--ttft-ms", "40", "--itl-ms", "15", "--ready-after-ms", "300"}));
    REQUIRE(server);
    const auto group = (*server)->process_group();
    LoadOptions o;
    o.port = (*server)->port();
    o.concurrency = 2;
    std::vector<CompletionRequest> requests(6, CompletionRequest{.prompt = "Hello there", .max_tokens = 5});
    auto load = run_load(o, requests);
    REQUIRE(load);
    REQUIRE(load->records.size() == 6);
    std::vector<double> gaps;
    for (const auto& r : load->records) {
        INFO(r.error);
        REQUIRE(r.ok);
        // Five tokens and the last chunk, whose choice has no text but counts, as vLLM counts it
        // (request_timing.hpp).
        CHECK(r.token_events == 6);
        CHECK(r.output_tokens == 5);  // the usage of the last chunk
        CHECK(r.ttft_s >= 0.040);
        CHECK(r.ttft_s < 10.0);
        REQUIRE(r.itl_s.size() == 5);
        gaps.insert(gaps.end(), r.itl_s.begin(), r.itl_s.end());
        // The stream cannot end before the server's waits did (1 ms for clock rounding). One gap
        // alone has no such bound: a token delivered late shortens the gap after it.
        CHECK(r.e2e_s >= 0.040 + 4 * 0.015 - 0.001);
        REQUIRE(r.server);
        CHECK(r.server->predicted_n == 5);
    }
    // The gaps as the server spaced them: their median is the server's 15 ms, not 0 (tokens
    // buffered and handed over together) and not its double.
    CHECK(quantile(gaps, 0.5) >= 0.012);
    CHECK(quantile(gaps, 0.5) < 0.030);
    // Two clients, six requests of at least 40 + 4 x 15 ms: three rounds at least.
    CHECK(load->wall_s >= 3 * 0.100);
    CHECK(load->client_cpu_s > 0);
    const auto s = summarize(*load);
    CHECK(s.failed == 0);
    // The fake server's timings say 40 + 4 x 15 ms; what the client saw beyond them is >= 0 (the
    // waits end no earlier) and small (loopback and parsing), 1 ms allowed for clock rounding.
    REQUIRE(s.beyond_server_ms);
    CHECK(s.beyond_server_ms->p50 >= -1.0);
    CHECK(s.beyond_server_ms->p50 < 1000.0);
    CHECK(clock_step_seconds() > 0);
    CHECK(clock_step_seconds() < 1e-4);  // a latency of a tenth of a millisecond is resolved
    REQUIRE(s.tpot_ms);
    CHECK(s.tpot_ms->p50 >= 14.0);
    (*server)->stop();
    CHECK_FALSE(group_alive(group));
}

TEST_CASE("load: a refused request is a failed record with its status, not a lost one", "[serving][load]") {
    auto server = start_server(fake({"--fail-status", "503"}));
    REQUIRE(server);
    LoadOptions o;
    o.port = (*server)->port();
    auto load = run_load(o, {CompletionRequest{.prompt = "x", .max_tokens = 3}, CompletionRequest{.prompt = "y", .max_tokens = 3}});
    REQUIRE(load);
    for (const auto& r : load->records) {
        CHECK_FALSE(r.ok);
        CHECK(r.error == "HTTP 503");
    }
    CHECK(summarize(*load).failed == 2);
    CHECK_FALSE(run_load(o, {}));
    o.concurrency = 0;
    CHECK_FALSE(run_load(o, {CompletionRequest{.prompt = "x", .max_tokens = 3}}));
}

TEST_CASE("server: a start that fails or never gets ready is an error naming the program, and leaves nothing", "[serving][server]") {
    auto bad_flag = start_server(fake({"--no-such-flag", "1"}));
    REQUIRE_FALSE(bad_flag);
    CHECK_THAT(bad_flag.error().message, Catch::Contains("fake_completion_server") && Catch::Contains("exited") &&
                                             Catch::Contains("unknown flag"));

    auto launch = fake({"--ready-after-ms", "600000"});
    launch.startup_timeout = std::chrono::milliseconds(800);
    auto never = start_server(launch);
    REQUIRE_FALSE(never);
    CHECK_THAT(never.error().message, Catch::Contains("not ready within") && Catch::Contains("/health"));

    auto missing = start_server(ServerLaunch{"/nonexistent/llama-server", {}, {}, "/health"});
    REQUIRE_FALSE(missing);
    CHECK_THAT(missing.error().message, Catch::Contains("/nonexistent/llama-server"));
}

TEST_CASE("server: killed with the process that started it, as ctest kills a test past its timeout", "[serving][server]") {
    // hold_server starts a server and waits; the process runner's timeout SIGKILLs hold_server's
    // process group, which the server is not in (it has its own): only PR_SET_PDEATHSIG ends it.
    ProcessRequest holder;
    holder.program = PERFGATE_HOLD_SERVER;
    holder.args = {PERFGATE_FAKE_COMPLETION_SERVER};
    holder.timeout = std::chrono::seconds(3);
    auto ran = run_process(holder);
    REQUIRE(ran);
    CHECK(ran->timed_out);
    const auto at = ran->out.find("group ");
    REQUIRE(at != std::string::npos);
    const std::int64_t group = std::stoll(ran->out.substr(at + 6));
    REQUIRE(group > 1);
    bool gone = false;
    for (int i = 0; i < 50 && !gone; ++i) {
        gone = !group_alive(group);
        if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(gone);
}

TEST_CASE("load: the synthetic request set is the same every run, of exact lengths, sent as token ids", "[serving][load]") {
    const auto a = synthetic_requests(5, 16, 7), b = synthetic_requests(5, 16, 7), other = synthetic_requests(5, 16, 7, 29);
    REQUIRE(a.size() == 5);
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].prompt_tokens == b[i].prompt_tokens);
        CHECK(a[i].prompt_tokens != other[i].prompt_tokens);  // another pass's seed, other prompts
        CHECK(a[i].prompt_tokens.size() == 16);
        CHECK(a[i].max_tokens == 7);
        for (auto id : a[i].prompt_tokens) CHECK((id >= 1000 && id < 5000));
    }
    CHECK(a[0].prompt_tokens != a[1].prompt_tokens);  // no two prompts of a pass share a cache entry
    // Spread output lengths: the same total and mean, within the bounds, not all alike, in an order
    // of the seed's (the same every run, another for another pass).
    const auto spread = synthetic_requests(16, 16, 32, 28, 0.5), again = synthetic_requests(16, 16, 32, 28, 0.5),
               other_pass = synthetic_requests(16, 16, 32, 29, 0.5);
    std::int64_t total = 0, low = 1000, high = 0;
    std::vector<std::int64_t> order, order_again, order_other;
    for (std::size_t i = 0; i < spread.size(); ++i) {
        total += spread[i].max_tokens;
        low = std::min(low, spread[i].max_tokens);
        high = std::max(high, spread[i].max_tokens);
        order.push_back(spread[i].max_tokens);
        order_again.push_back(again[i].max_tokens);
        order_other.push_back(other_pass[i].max_tokens);
    }
    CHECK(total == 16 * 32);
    CHECK(low >= 16);
    CHECK(high <= 48);
    CHECK(high - low >= 28);
    CHECK(order == order_again);
    CHECK(order != order_other);
    CHECK(!std::is_sorted(order.begin(), order.end()));
    const auto body = nlohmann::json::parse(completion_body(LoadOptions{}, a[0]));
    CHECK(body["prompt"].get<std::vector<std::int64_t>>() == a[0].prompt_tokens);
    CHECK(body["max_tokens"] == 7);
    CHECK(body["stream"] == true);
    CHECK(body["ignore_eos"] == true);
    CHECK(nlohmann::json::parse(completion_body(LoadOptions{}, CompletionRequest{.prompt = "Hi", .max_tokens = 2}))["prompt"] == "Hi");
}
