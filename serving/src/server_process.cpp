#include "perfgate/serving/server_process.hpp"

#include <signal.h>

#include <boost/asio/ip/tcp.hpp>
#include <fmt/format.h>

#include "perfgate/core/text.hpp"
#include "perfgate/serving/server_address.hpp"

namespace perfgate::serving {
namespace {

namespace net = boost::asio;

std::string with_port(std::string arg, std::uint16_t port) {
    for (auto at = arg.find("{port}"); at != std::string::npos; at = arg.find("{port}", at))
        arg.replace(at, 6, std::to_string(port));
    return arg;
}

std::string output_tail(const ProcessResult& r) {
    const std::string& text = r.err.empty() ? r.out : r.err;
    return printable_excerpt(text.size() > 600 ? text.substr(text.size() - 600) : text, 600);
}

}  // namespace

Expected<std::uint16_t> free_loopback_port() {
    try {
        net::io_context io;
        net::ip::tcp::acceptor acceptor(io, net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
        return acceptor.local_endpoint().port();
    } catch (const std::exception& e) {
        return make_error(fmt::format("no free loopback port: {}", e.what()));
    }
}

RunningServer::~RunningServer() { stop(); }

ProcessResult RunningServer::stop() {
    if (result_) return *result_;
    if (group_ > 0 && finished_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        ::kill(-static_cast<pid_t>(group_), SIGTERM);
        if (finished_.wait_for(grace_) != std::future_status::ready) ::kill(-static_cast<pid_t>(group_), SIGKILL);
    }
    auto ended = finished_.get();
    runner_.join();
    result_ = ended ? *ended : ProcessResult{};
    if (!ended) result_->err = ended.error().message;
    return *result_;
}

Expected<std::unique_ptr<RunningServer>> start_server(const ServerLaunch& launch) {
    auto port = free_loopback_port();
    if (!port) return port.error();
    std::unique_ptr<RunningServer> server(new RunningServer());
    server->port_ = *port;
    server->grace_ = launch.stop_grace;
    ProcessRequest request;
    request.program = launch.program;
    for (const auto& a : launch.args) request.args.push_back(with_port(a, *port));
    request.env = launch.env;
    request.timeout = launch.lifetime;
    request.merge_stderr = true;
    std::promise<std::int64_t> started;
    auto group = started.get_future();
    request.on_started = [&started](std::int64_t g) { started.set_value(g); };
    std::promise<Expected<ProcessResult>> finished;
    server->finished_ = finished.get_future();
    server->runner_ = std::thread([request, p = std::move(finished)]() mutable { p.set_value(run_process(request)); });
    const auto deadline = std::chrono::steady_clock::now() + launch.startup_timeout;
    // Started, or failed to start (then the result is already there).
    while (group.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
        if (server->finished_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
            auto ended = server->stop();
            return make_error(fmt::format("{}: could not start: {}", launch.program, output_tail(ended)));
        }
    server->group_ = group.get();
    while (!healthy(ServerAddress{"127.0.0.1", *port}, launch.health_path)) {
        if (server->finished_.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready) {
            auto ended = server->stop();
            return make_error(fmt::format("{}: exited (status {}) before it was ready: {}", launch.program,
                                          ended.shell_status(), output_tail(ended)));
        }
        if (std::chrono::steady_clock::now() > deadline) {
            auto ended = server->stop();
            return make_error(fmt::format("{}: not ready within {} s ({} never answered 200); stopped: {}", launch.program,
                                          launch.startup_timeout.count() / 1000, launch.health_path, output_tail(ended)));
        }
    }
    return server;
}

}  // namespace perfgate::serving
