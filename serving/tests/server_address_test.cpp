#include <catch2/catch.hpp>

#include "perfgate/serving/server_address.hpp"
#include "perfgate/serving/server_process.hpp"

using namespace perfgate;
using namespace perfgate::serving;

TEST_CASE("a running server's URL gives its host and port, and nothing else is taken", "[serving][url]") {
    auto a = parse_server_url("http://127.0.0.1:8000");
    REQUIRE(a);
    CHECK(a->host == "127.0.0.1");
    CHECK(a->port == 8000);
    auto b = parse_server_url("http://gpu-box.internal/");
    REQUIRE(b);
    CHECK(b->host == "gpu-box.internal");
    CHECK(b->port == 80);
    auto c = parse_server_url("http://[::1]:30000");
    REQUIRE(c);
    CHECK(c->host == "::1");
    CHECK(c->port == 30000);
    const auto refused = [](const char* url) {
        auto r = parse_server_url(url);
        REQUIRE_FALSE(r);
        return r.error().message;
    };
    CHECK_THAT(refused("https://api.example.com"), Catch::Contains("only http://"));
    CHECK_THAT(refused("http://127.0.0.1:8000/v1"), Catch::Contains("no path, query or fragment"));
    CHECK_THAT(refused("http://127.0.0.1:8000/?a=1"), Catch::Contains("no path, query or fragment"));
    CHECK_THAT(refused("http://user:pw@127.0.0.1:8000"), Catch::Contains("user or password"));
    CHECK_THAT(refused("http://127.0.0.1:0"), Catch::Contains("from 1 to 65535"));
    CHECK_THAT(refused("127.0.0.1:8000"), Catch::StartsWith("url \"127.0.0.1:8000\": "));
    CHECK_THAT(refused("not a url"), Catch::Contains("not a URL"));
}

TEST_CASE("waiting for a running server: ready once it answers 200, else an error within the bound", "[serving][url]") {
    ServerLaunch launch;
    launch.program = PERFGATE_FAKE_COMPLETION_SERVER;
    launch.args = {"--port", "{port}"};
    auto server = start_server(launch);
    REQUIRE(server);
    const ServerAddress address{"127.0.0.1", (*server)->port()};
    CHECK(healthy(address, "/health"));
    CHECK(wait_until_healthy(address, "/health", std::chrono::milliseconds(2000)));
    (*server)->stop();
    CHECK_FALSE(healthy(address, "/health"));
    auto late = wait_until_healthy(address, "/health", std::chrono::milliseconds(300));
    REQUIRE_FALSE(late);
    CHECK_THAT(late.error().message, Catch::Contains("did not answer 200 on /health within 0.3 s"));
}
