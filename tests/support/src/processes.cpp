#include "perfgate/test/processes.hpp"

#include <fstream>
#include <string>
#include <thread>

namespace perfgate::test {

bool process_alive(int pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text)) return false;
    // The state follows the command name, which is in parentheses and may itself hold ") ".
    const auto close = text.rfind(')');
    return close != std::string::npos && text.size() > close + 2 && text[close + 2] != 'Z';
}

bool process_gone_within(int pid, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (process_alive(pid) && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return !process_alive(pid);
}

}  // namespace perfgate::test
