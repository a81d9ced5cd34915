// Starts fake_completion_server as a server under test, prints its process group, and waits to be
// killed: serving_tests kills this process with SIGKILL, as ctest kills a test past its timeout,
// and checks that the server did not outlive it.
//   hold_server FAKE_COMPLETION_SERVER
#include <chrono>
#include <iostream>
#include <thread>

#include "perfgate/serving/server_process.hpp"

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    perfgate::serving::ServerLaunch launch;
    launch.program = argv[1];
    launch.args = {"--port", "{port}"};
    auto server = perfgate::serving::start_server(launch);
    if (!server) {
        std::cerr << server.error().message << "\n";
        return 1;
    }
    std::cout << "group " << (*server)->process_group() << std::endl;
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(60));
}
