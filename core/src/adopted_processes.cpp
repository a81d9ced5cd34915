#include "adopted_processes.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace perfgate::detail {
namespace {

// The parent pid in /proc/<pid>/stat: the field after the state, which follows the command name
// in parentheses (the name may itself hold ") ").
pid_t parent_of(const std::filesystem::path& stat_file) {
    std::ifstream in(stat_file);
    std::string text;
    if (!std::getline(in, text)) return 0;
    const auto close = text.rfind(')');
    if (close == std::string::npos || text.size() < close + 4) return 0;
    try {
        return static_cast<pid_t>(std::stol(text.substr(close + 4)));
    } catch (const std::exception&) {
        return 0;
    }
}

}  // namespace

void become_subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }

std::set<pid_t> our_children() {
    std::set<pid_t> out;
    const pid_t self = ::getpid();
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const auto name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        if (parent_of(entry.path() / "stat") == self) out.insert(static_cast<pid_t>(std::stol(name)));
    }
    return out;
}

std::size_t kill_adopted_children(const std::set<pid_t>& before) {
    std::size_t killed = 0;
    // Killing one adopted process can hand us its own children: look again until none is left.
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (true) {
        std::size_t found = 0;
        for (pid_t pid : our_children()) {
            if (before.count(pid)) continue;
            ++found;
            ::kill(-pid, SIGKILL);  // its group, when it leads one (setsid made it a leader)
            ::kill(pid, SIGKILL);
            if (::waitpid(pid, nullptr, 0) == pid) ++killed;
        }
        if (found == 0 || std::chrono::steady_clock::now() >= end) return killed;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

}  // namespace perfgate::detail
