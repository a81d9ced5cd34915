#include "perfgate/probes/sysroot.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <boost/filesystem.hpp>

namespace perfgate::probes {

namespace fs = boost::filesystem;

Sysroot::Sysroot(std::string root) : root_(root.empty() ? std::string("/") : std::move(root)) {}

std::optional<std::string> Sysroot::read(const std::string& relative) const {
    std::ifstream in((fs::path(root_) / relative).string(), std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return buffer.str();
}

bool Sysroot::exists(const std::string& relative) const {
    boost::system::error_code ec;
    return fs::exists(fs::path(root_) / relative, ec);
}

std::vector<std::string> Sysroot::list(const std::string& relative_dir, const std::string& prefix) const {
    std::vector<std::string> names;
    boost::system::error_code ec;
    for (fs::directory_iterator it(fs::path(root_) / relative_dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (name.rfind(prefix, 0) == 0) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace perfgate::probes
