#include "perfgate/serving/server_address.hpp"

#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/url/parse.hpp>
#include <fmt/format.h>

#include "deadline.hpp"

namespace perfgate::serving {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;

Error bad_url(std::string_view url, std::string_view why) {
    return Error{fmt::format("url \"{}\": {}", url, why)};
}

}  // namespace

Expected<ServerAddress> parse_server_url(std::string_view url) {
    auto parsed = boost::urls::parse_uri(url);
    if (!parsed) return bad_url(url, "not a URL (expected http://host:port)");
    const auto& u = *parsed;
    if (u.scheme_id() != boost::urls::scheme::http)
        return bad_url(url, "only http:// is spoken (the load generator has no TLS; measure the server behind it)");
    if (u.has_userinfo()) return bad_url(url, "a user or password is not taken");
    if (!(u.encoded_path().empty() || u.encoded_path() == "/") || u.has_query() || u.has_fragment())
        return bad_url(url, "no path, query or fragment: the runtime's endpoint and health_path are the paths");
    ServerAddress address;
    address.host = u.host_address();
    if (address.host.empty()) return bad_url(url, "no host");
    if (u.has_port()) {
        if (u.port_number() == 0) return bad_url(url, "the port must be a number from 1 to 65535");
        address.port = u.port_number();
    }
    return address;
}

bool healthy(const ServerAddress& server, const std::string& path) {
    try {
        // Two seconds for the whole look, whatever the server sends (an endless /health body is
        // cut there, and by the parser's 8 MiB body limit before).
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        net::io_context io;
        beast::tcp_stream stream(io);
        net::ip::tcp::resolver resolver(io);
        const auto endpoints = resolver.resolve(server.host, std::to_string(server.port));
        detail::run_by_deadline(io, stream, deadline, [&](auto handler) { stream.async_connect(endpoints, std::move(handler)); });
        http::request<http::empty_body> req{http::verb::get, path, 11};
        req.set(http::field::host, server.host);
        detail::run_by_deadline(io, stream, deadline, [&](auto handler) { http::async_write(stream, req, std::move(handler)); });
        beast::flat_buffer buffer;
        http::response<http::string_body> res;
        detail::run_by_deadline(io, stream, deadline,
                                [&](auto handler) { http::async_read(stream, buffer, res, std::move(handler)); });
        return res.result() == http::status::ok;
    } catch (const std::exception&) {
        return false;
    }
}

Status wait_until_healthy(const ServerAddress& server, const std::string& path, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!healthy(server, path)) {
        if (std::chrono::steady_clock::now() >= deadline)
            return make_error(fmt::format("the server at {}:{} did not answer 200 on {} within {:.1f} s", server.host,
                                          server.port, path, static_cast<double>(timeout.count()) / 1000));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return Ok{};
}

}  // namespace perfgate::serving
