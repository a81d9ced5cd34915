// Every wait of the load generator and of the health check ends by its deadline, against servers
// that misbehave on purpose (issue 48 item 12): one that accepts and never answers, one that
// answers and then drips an SSE comment every 300 ms, one that streams tokens without end, and a
// /health whose body never ends. Before, the synchronous calls ignored the stream's timeout and
// each of these held the request for as long as the server kept it (40-60 s seen, unbounded).
#include <catch2/catch.hpp>

#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include "perfgate/serving/load_generator.hpp"
#include "perfgate/serving/server_address.hpp"

using namespace perfgate::serving;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

enum class Misbehaviour { silent, drip, endless_stream, endless_health };

// Answers every connection the same wrong way, from threads of this process, until destroyed.
class HostileServer {
public:
    explicit HostileServer(Misbehaviour how) : acceptor_(io_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
        port_ = acceptor_.local_endpoint().port();
        accepting_ = std::thread([this, how] {
            for (;;) {
                auto socket = std::make_shared<tcp::socket>(io_);
                boost::system::error_code ec;
                acceptor_.accept(*socket, ec);
                if (ec || stop_) return;
                std::lock_guard<std::mutex> lock(mutex_);
                sockets_.push_back(socket);
                workers_.emplace_back([this, socket, how] { misbehave(*socket, how, stop_); });
            }
        });
    }
    // Every thread is joined before the io_context its sockets belong to goes.
    ~HostileServer() {
        stop_ = true;
        boost::system::error_code ec;
        tcp::socket wake(io_);
        wake.connect(acceptor_.local_endpoint(), ec);  // ends the blocking accept
        accepting_.join();
        std::lock_guard<std::mutex> lock(mutex_);
        // A worker blocked in a write to a client that stopped reading is woken by the shutdown
        // (the system call, safe beside the worker's own use of the socket).
        for (const auto& socket : sockets_) ::shutdown(socket->native_handle(), SHUT_RDWR);
        for (auto& worker : workers_) worker.join();
    }
    std::uint16_t port() const { return port_; }

private:
    static void misbehave(tcp::socket& socket, Misbehaviour how, const std::atomic<bool>& stop) {
        boost::system::error_code ec;
        net::streambuf request;
        net::read_until(socket, request, "\r\n\r\n", ec);
        const auto pause = [](int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); };
        if (how == Misbehaviour::silent) {
            while (!stop && !ec) pause(50);
            return;
        }
        const std::string head = how == Misbehaviour::endless_health
                                     ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                     : "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n";
        net::write(socket, net::buffer(head), ec);
        // The health body drips a chunk of 100 bytes every 100 ms: Beast's 8 MiB body limit would
        // not end the read for hours, so only the deadline can.
        const std::string piece = how == Misbehaviour::drip ? ": keep-alive\n\n"
                                  : how == Misbehaviour::endless_health
                                      ? "64\r\n" + std::string(100, 'x') + "\r\n"
                                      : "data: {\"choices\":[{\"text\":\" tok\",\"index\":0}]}\n\n";
        while (!stop && !ec) {
            net::write(socket, net::buffer(piece), ec);
            if (how == Misbehaviour::drip) pause(300);
            else if (how == Misbehaviour::endless_health) pause(100);
        }
    }

    net::io_context io_;
    tcp::acceptor acceptor_;
    std::uint16_t port_ = 0;
    std::atomic<bool> stop_{false};
    std::mutex mutex_;
    std::vector<std::shared_ptr<tcp::socket>> sockets_;
    std::vector<std::thread> workers_;
    std::thread accepting_;
};

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

TEST_CASE("load: a request ends by its bound whatever the server does", "[serving][deadline]") {
    for (auto how : {Misbehaviour::silent, Misbehaviour::drip, Misbehaviour::endless_stream}) {
        HostileServer server(how);
        LoadOptions o;
        o.port = server.port();
        o.request_timeout = std::chrono::milliseconds(1000);
        const auto start = Clock::now();
        auto load = run_load(o, {CompletionRequest{.prompt = "Hello", .max_tokens = 4}});
        const double took = seconds_since(start);
        INFO("misbehaviour " << static_cast<int>(how) << ", " << took << " s");
        REQUIRE(load);
        const auto& r = load->records.front();
        CHECK_FALSE(r.ok);
        CHECK_THAT(r.error, Catch::Contains("no end within the request's bound of 1.0 s"));
        CHECK(took >= 0.9);
        // The acceptance asks for 1 s past the bound; a loaded 2-core machine gets 3 more.
        CHECK(took < 1.0 + 4.0);
    }
}

TEST_CASE("health: a look at a server whose /health never ends is over in about 2 s", "[serving][deadline]") {
    for (auto how : {Misbehaviour::endless_health, Misbehaviour::silent}) {
        HostileServer server(how);
        const auto start = Clock::now();
        CHECK_FALSE(healthy(ServerAddress{"127.0.0.1", server.port()}, "/health"));
        const double took = seconds_since(start);
        INFO("misbehaviour " << static_cast<int>(how) << ", " << took << " s");
        CHECK(took >= 1.9);
        CHECK(took < 2.0 + 4.0);
    }
}
