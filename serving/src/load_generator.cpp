#include "perfgate/serving/load_generator.hpp"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "deadline.hpp"
#include "perfgate/serving/request_timing.hpp"
#include "perfgate/serving/sse.hpp"

namespace perfgate::serving {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double process_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Reads the body as it arrives, into the SSE parser: read_some returns with whatever the socket
// had (http::read would wait for a full buffer or the whole message, and every token would arrive
// at the end), and the buffer_body parser hands over that piece.
void read_stream(net::io_context& io, beast::tcp_stream& stream, beast::flat_buffer& buffer,
                 http::response_parser<http::buffer_body>& parser, SseParser& sse, Clock::time_point deadline) {
    char piece[8192];
    while (!parser.is_done()) {
        parser.get().body().data = piece;
        parser.get().body().size = sizeof piece;
        try {
            detail::run_by_deadline(io, stream, deadline,
                                    [&](auto handler) { http::async_read_some(stream, buffer, parser, std::move(handler)); });
        } catch (const beast::system_error& e) {
            if (e.code() != http::error::need_buffer) throw;
        }
        sse.feed(std::string_view(piece, sizeof piece - parser.get().body().size));
        if (sse.error()) throw std::runtime_error(*sse.error());
    }
    sse.finish();
}

// One streamed completion, every step of it by one deadline: the request's bound from its start
// (the workload's timeout_s), whatever the server does meanwhile.
// The clock starts here, before the connect, as vLLM's starts before its POST.
void stream_request(net::io_context& io, const LoadOptions& options, const CompletionRequest& request,
                    RequestTiming& timing) {
    const auto started = Clock::now();
    const auto deadline = started + options.request_timeout;
    beast::tcp_stream stream(io);
    net::ip::tcp::resolver resolver(io);
    const auto endpoints = resolver.resolve(options.host, std::to_string(options.port));
    detail::run_by_deadline(io, stream, deadline, [&](auto handler) { stream.async_connect(endpoints, std::move(handler)); });
    http::request<http::string_body> req{http::verb::post, options.path, 11};
    req.set(http::field::host, options.host);
    req.set(http::field::content_type, "application/json");
    req.set(http::field::accept, "text/event-stream");
    req.body() = completion_body(options, request);
    req.prepare_payload();
    detail::run_by_deadline(io, stream, deadline, [&](auto handler) { http::async_write(stream, req, std::move(handler)); });
    beast::flat_buffer buffer;
    http::response_parser<http::buffer_body> parser;
    parser.body_limit(boost::none);  // a stream is as long as the completion, within the deadline
    detail::run_by_deadline(io, stream, deadline,
                            [&](auto handler) { http::async_read_header(stream, buffer, parser, std::move(handler)); });
    if (parser.get().result() != http::status::ok)
        throw std::runtime_error(fmt::format("HTTP {}", parser.get().result_int()));
    SseParser sse([&](std::string_view data) { timing.on_event(data, seconds(Clock::now() - started)); });
    read_stream(io, stream, buffer, parser, sse, deadline);
    beast::error_code ignored;
    stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
}

RequestRecord one_request(net::io_context& io, const LoadOptions& options, const CompletionRequest& request) {
    RequestTiming timing;
    try {
        stream_request(io, options, request, timing);
    } catch (const beast::system_error& e) {
        return std::move(timing).finish(
            e.code() == beast::error::timeout
                ? fmt::format("no end within the request's bound of {:.1f} s (the workload's timeout_s)",
                              static_cast<double>(options.request_timeout.count()) / 1000)
                : std::string(e.what()));
    } catch (const std::exception& e) {
        return std::move(timing).finish(e.what());
    }
    return std::move(timing).finish();
}

}  // namespace

double clock_step_seconds() {
    double smallest = 1.0;
    for (int i = 0; i < 1000; ++i) {
        const auto a = Clock::now();
        auto b = Clock::now();
        while (b == a) b = Clock::now();
        smallest = std::min(smallest, seconds(b - a));
    }
    return smallest;
}

std::vector<CompletionRequest> synthetic_requests(std::size_t count, std::int64_t prompt_length,
                                                  std::int64_t output_length, std::uint64_t seed,
                                                  double output_spread) {
    std::mt19937_64 draw(seed);  // the standard's engine: the same ids on every platform
    std::vector<CompletionRequest> out(count);
    for (std::size_t k = 0; k < count; ++k) {
        auto& r = out[k];
        r.prompt_tokens.resize(static_cast<std::size_t>(std::max<std::int64_t>(1, prompt_length)));
        for (auto& id : r.prompt_tokens) id = 1000 + static_cast<std::int64_t>(draw() % 4000);
        // Evenly spaced lengths (not drawn): every pass writes the same tokens in all.
        const double share = count > 1 ? (static_cast<double>(k) + 0.5) / static_cast<double>(count) : 0.5;
        const double length = static_cast<double>(output_length) * (1 - output_spread + 2 * output_spread * share);
        r.max_tokens = std::max<std::int64_t>(1, std::llround(length));
    }
    // The order is drawn with a Fisher-Yates pass of the same engine (std::shuffle's algorithm is
    // the library's own choice, so its order could differ between platforms).
    for (std::size_t k = count; k > 1; --k) std::swap(out[k - 1].max_tokens, out[draw() % k].max_tokens);
    return out;
}

std::string completion_body(const LoadOptions& options, const CompletionRequest& request) {
    const nlohmann::ordered_json prompt = request.prompt_tokens.empty() ? nlohmann::ordered_json(request.prompt)
                                                                        : nlohmann::ordered_json(request.prompt_tokens);
    nlohmann::ordered_json body = {{"model", options.model.empty() ? "perfgate" : options.model},
                                   {"prompt", prompt},
                                   {"max_tokens", request.max_tokens},
                                   {"temperature", 0},
                                   {"stream", true},
                                   {"ignore_eos", true},  // every request writes its full output length
                                   {"stream_options", {{"include_usage", true}}}};
    return body.dump();
}

Expected<LoadResult> run_load(const LoadOptions& options, const std::vector<CompletionRequest>& requests) {
    if (requests.empty()) return make_error("the load has no request");
    if (options.concurrency == 0) return make_error("the load needs a concurrency of at least 1");
    LoadResult result;
    result.records.resize(requests.size());
    std::atomic<std::size_t> next{0};
    const double cpu_before = process_cpu_seconds();
    const auto start = Clock::now();
    std::vector<std::thread> clients;
    for (std::size_t c = 0; c < std::min(options.concurrency, requests.size()); ++c)
        clients.emplace_back([&] {
            net::io_context io;
            for (std::size_t i = next++; i < requests.size(); i = next++) result.records[i] = one_request(io, options, requests[i]);
        });
    for (auto& t : clients) t.join();
    result.wall_s = seconds(Clock::now() - start);
    result.client_cpu_s = process_cpu_seconds() - cpu_before;
    return result;
}

}  // namespace perfgate::serving
