#include "perfgate/core/project_paths.hpp"

#include <system_error>

namespace perfgate {

namespace fs = std::filesystem;

std::optional<fs::path> nearest_ancestor(fs::path dir, const std::function<bool(const fs::path&)>& has_marker) {
    for (; !dir.empty(); dir = dir.parent_path()) {
        if (has_marker(dir)) return dir;
        if (dir == dir.root_path()) break;
    }
    return std::nullopt;
}

std::optional<fs::path> find_project_root(const fs::path& start) {
    std::error_code ec;
    fs::path dir = fs::weakly_canonical(fs::absolute(start, ec), ec);
    if (ec) return std::nullopt;
    if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
    return nearest_ancestor(dir, [&](const fs::path& d) {
        return fs::exists(d / "CMakePresets.json", ec) || fs::exists(d / ".git", ec);
    });
}

std::optional<fs::path> find_build_root(const fs::path& start) {
    std::error_code ec;
    fs::path dir = fs::weakly_canonical(fs::absolute(start, ec), ec);
    if (ec) return std::nullopt;
    return nearest_ancestor(dir, [&](const fs::path& d) { return fs::exists(d / "CMakeCache.txt", ec); });
}

std::optional<fs::path> find_gate_root(const fs::path& start) {
    std::error_code ec;
    return nearest_ancestor(start, [&](const fs::path& d) {
        return fs::is_directory(d / "benchmarks", ec) || fs::is_directory(d / "thresholds", ec);
    });
}

namespace {

// Lexical: the file may not exist yet (or any more), and symlinks must not change the answer.
std::optional<std::string> inside(const fs::path& p, const fs::path& folder) {
    if (folder.empty()) return std::nullopt;
    const fs::path rel = p.lexically_normal().lexically_relative(folder.lexically_normal());
    if (rel.empty() || *rel.begin() == "..") return std::nullopt;
    return rel.generic_string();
}

}  // namespace

std::string project_relative(const std::string& path, const fs::path& root, const fs::path& build) {
    if (path.empty()) return path;
    const fs::path p(path);
    if (!p.is_absolute()) return path;
    // The build folder first: a run's commands read the same whether its build folder sits in the
    // project (build/<preset>) or outside it, so one page shows one path style (issue 27).
    if (auto rel = inside(p, build)) return std::string(build_placeholder) + "/" + *rel;
    if (auto rel = inside(p, root)) return *rel;
    return path;
}

std::string map_command_words(const std::string& command, const std::function<std::string(const std::string&)>& word) {
    std::string out;
    std::size_t i = 0;
    while (i <= command.size()) {
        const std::size_t space = command.find(' ', i);
        const std::size_t end = space == std::string::npos ? command.size() : space;
        out += word(command.substr(i, end - i));
        if (space == std::string::npos) break;
        out += ' ';
        i = space + 1;
    }
    return out;
}

std::string project_relative_command(const std::string& command, const fs::path& root, const fs::path& build) {
    return map_command_words(command, [&](const std::string& w) { return project_relative(w, root, build); });
}

}  // namespace perfgate
