#include "perfgate/core/project_paths.hpp"

#include <system_error>

namespace perfgate {

namespace fs = std::filesystem;

std::optional<fs::path> find_project_root(const fs::path& start) {
    std::error_code ec;
    fs::path dir = fs::weakly_canonical(fs::absolute(start, ec), ec);
    if (ec) return std::nullopt;
    if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
    for (; !dir.empty(); dir = dir.parent_path()) {
        if (fs::exists(dir / "CMakePresets.json", ec) || fs::exists(dir / ".git", ec)) return dir;
        if (dir == dir.root_path()) break;
    }
    return std::nullopt;
}

std::string project_relative(const std::string& path, const fs::path& root) {
    if (path.empty() || root.empty()) return path;
    const fs::path p(path);
    if (!p.is_absolute()) return path;
    // Lexical: the file may not exist yet (or any more), and symlinks must not change the answer.
    const fs::path rel = p.lexically_normal().lexically_relative(root.lexically_normal());
    if (rel.empty() || *rel.begin() == "..") return path;
    return rel.generic_string();
}

std::string project_relative_command(const std::string& command, const fs::path& root) {
    std::string out;
    std::size_t i = 0;
    while (i <= command.size()) {
        const std::size_t space = command.find(' ', i);
        const std::size_t end = space == std::string::npos ? command.size() : space;
        out += project_relative(command.substr(i, end - i), root);
        if (space == std::string::npos) break;
        out += ' ';
        i = space + 1;
    }
    return out;
}

}  // namespace perfgate
