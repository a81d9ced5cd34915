#include "perfgate/test/files.hpp"

#include <unistd.h>

#include <fstream>
#include <mutex>
#include <set>
#include <random>
#include <sstream>
#include <stdexcept>

namespace perfgate::test {
namespace fs = std::filesystem;

fs::path fixture(const std::string& relative) { return fs::path(PERFGATE_FIXTURES_DIR) / relative; }
std::string mlxcel_csv(const std::string& name) { return fixture("mlxcel-benchmarks/" + name).string(); }
fs::path source_path(const std::string& relative) { return fs::path(PERFGATE_SOURCE_DIR) / relative; }

fs::path fresh_dir(const std::string& group, const std::string& name) {
    auto dir = fs::temp_directory_path() / (group + "-" + std::to_string(::getpid())) / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

fs::path temp_dir(const std::string& tag) {
    auto dir = fs::temp_directory_path() / ("perfgate-" + tag + "-" + std::to_string(::getpid()));
    static std::mutex mutex;
    static std::set<std::string> asked;  // tags this process has asked for
    {
        const std::lock_guard<std::mutex> lock(mutex);
        // Pids are reused and these folders are kept after a run.
        if (asked.insert(tag).second) fs::remove_all(dir);
    }
    fs::create_directories(dir);
    return dir;
}

TempDir::TempDir(const std::string& tag) {
    // pid + a random number: parallel test processes and several TempDirs of one test never meet.
    std::random_device rd;
    path = fs::temp_directory_path() /
           ("perfgate-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    fs::create_directories(path);
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
}

std::string TempDir::sub(const std::string& name) const {
    const auto p = path / name;
    fs::create_directories(p.parent_path());
    return p.string();
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_file(const fs::path& path, std::string_view text) {
    if (path.has_parent_path()) fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace perfgate::test
