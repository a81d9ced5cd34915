#pragma once
// A server perfgate does not start (a serving runtime's "url", docs/serving.md "A server that is
// already running"): where it listens, read from an http:// URL, and a bounded wait until its
// health endpoint answers 200.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "perfgate/core/expected.hpp"

namespace perfgate::serving {

struct ServerAddress {
    std::string host;  // a name, an IPv4 address or an IPv6 address (without brackets)
    std::uint16_t port = 80;
};

// "http://host[:port][/]": no user, path, query or fragment (the runtime's endpoint and
// health_path are the paths), and plain HTTP only (the load generator speaks no TLS). An error says
// what is wrong with the URL.
Expected<ServerAddress> parse_server_url(std::string_view url);

// One GET of `path`: true on 200 (llama-server answers 503 while it loads the model).
bool healthy(const ServerAddress& server, const std::string& path);

// Waits until healthy, looking every 100 ms; an error names the URL and how long it waited.
Status wait_until_healthy(const ServerAddress& server, const std::string& path, std::chrono::milliseconds timeout);

}  // namespace perfgate::serving
