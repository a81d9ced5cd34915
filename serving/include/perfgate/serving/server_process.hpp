#pragma once
// A server under test, started through core's process runner (its own process group, killed with
// perfgate: PR_SET_PDEATHSIG and the termination handlers) on a loopback port the OS chose, and
// ready once its health endpoint answers 200 within the start-up bound. Stopping it ends its whole
// process group: SIGTERM, then SIGKILL after the grace period.
#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/process.hpp"

namespace perfgate::serving {

struct ServerLaunch {
    std::string program;
    std::vector<std::string> args;  // "{port}" in an argument becomes the chosen port
    std::map<std::string, std::string> env;
    std::string health_path = "/health";
    std::chrono::milliseconds startup_timeout{120'000};
    std::chrono::milliseconds lifetime{3'600'000};  // the process runner's bound on the whole run
    std::chrono::milliseconds stop_grace{10'000};
};

class RunningServer {
public:
    ~RunningServer();
    RunningServer(const RunningServer&) = delete;
    RunningServer& operator=(const RunningServer&) = delete;

    std::uint16_t port() const { return port_; }
    std::int64_t process_group() const { return group_; }
    // Ends the server's process group and returns how it ended (its output, for a failure note).
    // Idempotent: a second call returns the first call's result.
    ProcessResult stop();

private:
    friend Expected<std::unique_ptr<RunningServer>> start_server(const ServerLaunch& launch);
    RunningServer() = default;

    std::uint16_t port_ = 0;
    std::int64_t group_ = 0;
    std::chrono::milliseconds grace_{10'000};
    std::future<Expected<ProcessResult>> finished_;
    std::thread runner_;
    std::optional<ProcessResult> result_;
};

// A free loopback TCP port, as the OS hands one out (bound to port 0, then released).
Expected<std::uint16_t> free_loopback_port();

// Starts the server and waits until it is ready. An error names the program and says why: it could
// not start, it exited (with the tail of its output), or it was not ready within the bound (and was
// stopped).
Expected<std::unique_ptr<RunningServer>> start_server(const ServerLaunch& launch);

}  // namespace perfgate::serving
