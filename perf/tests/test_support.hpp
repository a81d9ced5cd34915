#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace perfgate::perf::test {

inline std::filesystem::path fixtures() { return std::filesystem::path(PERFGATE_SHARED_DIR) / "fixtures"; }
inline std::filesystem::path source() { return PERFGATE_SOURCE_DIR; }
inline std::filesystem::path data() { return source() / "perf/tests/data"; }

// A recorded file without its "# " metadata lines (the fixtures' convention).
inline std::string recorded(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string line, out;
    while (std::getline(in, line))
        if (line.rfind("# ", 0) != 0) out += line + "\n";
    return out;
}

inline std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A fresh folder under the build tree's temp area.
inline std::filesystem::path temp_dir(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("perfgate-perf-tests-" + std::to_string(::getpid())) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace perfgate::perf::test
