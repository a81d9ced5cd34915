#pragma once
// HTTP steps that end by a deadline. Beast's tcp_stream timeouts (expires_after, expires_at) hold
// for its asynchronous operations only: the synchronous connect, write and read the load generator
// and the health check used ignored them, so a server that never answered, or dripped an SSE
// comment every 4 s, or streamed without end, held a request far past its bound (issue 48 item
// 12). Each step here starts the asynchronous operation and runs the caller's own io_context until
// it completes, which the stream's timer makes happen by the deadline at the latest.
#include <chrono>
#include <cstddef>

#include <boost/asio/io_context.hpp>
#include <boost/beast/core.hpp>

namespace perfgate::serving::detail {

// Runs `start(handler)`, an asynchronous operation on `stream`, to its end on `io` (which must
// serve this thread alone), the stream expiring at `deadline`. Throws beast::system_error with the
// operation's error: beast::error::timeout when the deadline passed.
template <class Start>
void run_by_deadline(boost::asio::io_context& io, boost::beast::tcp_stream& stream,
                     std::chrono::steady_clock::time_point deadline, Start&& start) {
    // A step begun after the deadline ends there: an endless stream whose every read completes at
    // once would otherwise never give the timer an operation to cancel.
    if (std::chrono::steady_clock::now() >= deadline) throw boost::beast::system_error(boost::beast::error::timeout);
    stream.expires_at(deadline);
    boost::beast::error_code result;
    bool done = false;
    start([&](boost::beast::error_code ec, auto&&...) {
        result = ec;
        done = true;
    });
    io.restart();
    io.run();
    // The timer ends the operation by the deadline; an io_context stopped from elsewhere would
    // leave it pending, which is a programmer error here.
    if (!done) throw boost::beast::system_error(boost::beast::error::timeout);
    if (result) throw boost::beast::system_error(result);
}

}  // namespace perfgate::serving::detail
