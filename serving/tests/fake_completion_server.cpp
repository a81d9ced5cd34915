// A streaming completion server of known timing for serving_tests: GET /health answers 503 until
// --ready-after-ms has passed, then 200; POST /v1/completions waits --ttft-ms, then streams
// max_tokens events (one token each) --itl-ms apart in llama-server's format, a last event with
// usage and timings, and [DONE]. With --fail-status N every completion is answered with status N;
// with --usage-tokens N the last event's usage claims N completion tokens, whatever was streamed.
//   fake_completion_server --port P [--ttft-ms A] [--itl-ms B] [--ready-after-ms R] [--fail-status N]
//                          [--usage-tokens N]
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

struct Options {
    unsigned short port = 0;
    int ttft_ms = 0, itl_ms = 0, ready_after_ms = 0, fail_status = 0;
    long long usage_tokens = 0;  // 0: the tokens streamed
};

const auto started = std::chrono::steady_clock::now();

void send_event(tcp::socket& socket, const std::string& data) {
    const std::string event = "data: " + data + "\n\n";
    net::write(socket, http::make_chunk(net::buffer(event)));
}

void stream_completion(tcp::socket& socket, const Options& o, const http::request<http::string_body>& req) {
    const auto body = nlohmann::json::parse(req.body(), nullptr, false);
    const int tokens = body.is_object() && body.contains("max_tokens") ? body["max_tokens"].get<int>() : 4;
    std::this_thread::sleep_for(std::chrono::milliseconds(o.ttft_ms));
    http::response<http::empty_body> res{http::status::ok, req.version()};
    res.set(http::field::content_type, "text/event-stream");
    res.chunked(true);
    http::response_serializer<http::empty_body> header{res};
    http::write_header(socket, header);
    for (int i = 0; i < tokens; ++i) {
        if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(o.itl_ms));
        send_event(socket, nlohmann::json{{"choices", {{{"text", " tok"}, {"index", 0}, {"finish_reason", nullptr}}}},
                                          {"object", "text_completion"}}
                               .dump());
    }
    send_event(socket, nlohmann::json{{"choices", {{{"text", ""}, {"index", 0}, {"finish_reason", "length"}}}},
                                      {"usage", {{"completion_tokens", o.usage_tokens > 0 ? o.usage_tokens : tokens},
                                                 {"prompt_tokens", 3}}},
                                      {"timings", {{"prompt_n", 3}, {"prompt_ms", o.ttft_ms}, {"predicted_n", tokens},
                                                   {"predicted_ms", (tokens - 1) * o.itl_ms}}}}
                           .dump());
    send_event(socket, "[DONE]");
    net::write(socket, http::make_chunk_last());
}

void serve(tcp::socket socket, Options o) {
    try {
        socket.set_option(tcp::no_delay(true));  // each event leaves when written, as a server's should
        beast::flat_buffer buffer;
        http::request<http::string_body> req;
        http::read(socket, buffer, req);
        if (req.target() == "/health") {
            const bool ready = std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(o.ready_after_ms);
            http::response<http::string_body> res{ready ? http::status::ok : http::status::service_unavailable, req.version()};
            res.body() = ready ? R"({"status":"ok"})" : R"({"error":{"message":"Loading model"}})";
            res.prepare_payload();
            http::write(socket, res);
        } else if (o.fail_status != 0) {
            http::response<http::string_body> res{static_cast<http::status>(o.fail_status), req.version()};
            res.body() = R"({"error":{"message":"refused by the test"}})";
            res.prepare_payload();
            http::write(socket, res);
        } else {
            stream_completion(socket, o, req);
        }
        beast::error_code ignored;
        socket.shutdown(tcp::socket::shutdown_send, ignored);
    } catch (const std::exception&) {
    }
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--usage-tokens") {  // before atoi: a count beyond int is this flag's point
            o.usage_tokens = std::atoll(argv[i + 1]);
            continue;
        }
        const int value = std::atoi(argv[i + 1]);
        if (flag == "--port") o.port = static_cast<unsigned short>(value);
        else if (flag == "--ttft-ms") o.ttft_ms = value;
        else if (flag == "--itl-ms") o.itl_ms = value;
        else if (flag == "--ready-after-ms") o.ready_after_ms = value;
        else if (flag == "--fail-status") o.fail_status = value;
        else {
            std::cerr << "fake_completion_server: unknown flag " << flag << "\n";
            return 2;
        }
    }
    net::io_context io;
    tcp::acceptor acceptor(io, tcp::endpoint(net::ip::make_address("127.0.0.1"), o.port));
    std::cout << "fake_completion_server: listening on " << acceptor.local_endpoint().port() << std::endl;
    for (;;) std::thread(serve, acceptor.accept(), o).detach();
}
