#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>

namespace perfgate::test {
inline std::string fixture(const std::string& relative) {
    return std::string(PERFGATE_SHARED_DIR) + "/fixtures/" + relative;
}
inline std::string mlxcel_csv(const std::string& name) { return fixture("mlxcel-benchmarks/" + name); }
// A folder of this test process under the system temp dir, named after `tag`.
inline std::filesystem::path temp_dir(const std::string& tag) {
    auto dir = std::filesystem::temp_directory_path() / ("perfgate-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}
}  // namespace perfgate::test
