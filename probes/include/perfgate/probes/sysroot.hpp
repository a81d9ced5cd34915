#pragma once
// Files are read under a root (default "/") so a recorded machine can be replayed from a folder.
#include <optional>
#include <string>
#include <vector>

namespace perfgate::probes {

class Sysroot {
public:
    explicit Sysroot(std::string root = "/");
    const std::string& root() const { return root_; }
    // `relative` like "proc/meminfo"; nullopt when missing or unreadable.
    std::optional<std::string> read(const std::string& relative) const;
    bool exists(const std::string& relative) const;
    // Names in a directory (not recursive) that start with `prefix`, sorted.
    std::vector<std::string> list(const std::string& relative_dir, const std::string& prefix) const;

private:
    std::string root_;
};

}  // namespace perfgate::probes
