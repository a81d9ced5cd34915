#include "perfgate/core/search_path.hpp"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace perfgate {
namespace fs = std::filesystem;

namespace {
bool is_executable_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}
}  // namespace

std::vector<std::string> split_search_path(const std::string& path_list) {
    std::vector<std::string> dirs;
    std::size_t start = 0;
    while (start <= path_list.size()) {
        const auto end = path_list.find(':', start);
        const auto dir = path_list.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!dir.empty()) dirs.push_back(dir);
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return dirs;
}

std::vector<std::string> search_path_dirs(const std::optional<std::string>& path_list) {
    if (path_list) return split_search_path(*path_list);
    const char* env = std::getenv("PATH");
    return split_search_path(env ? env : "");
}

std::optional<std::string> find_on_path(const std::string& name, const std::vector<std::string>& dirs) {
    if (name.empty()) return std::nullopt;
    if (name.find('/') != std::string::npos)
        return is_executable_file(name) ? std::optional<std::string>(name) : std::nullopt;
    for (const auto& dir : dirs) {
        const auto candidate = fs::path(dir) / name;
        if (is_executable_file(candidate)) return candidate.string();
    }
    return std::nullopt;
}

std::optional<std::string> find_on_path(const std::string& name) {
    return find_on_path(name, search_path_dirs(std::nullopt));
}

}  // namespace perfgate
