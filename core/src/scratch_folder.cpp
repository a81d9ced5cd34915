#include "perfgate/core/scratch_folder.hpp"

#include <stdlib.h>

namespace perfgate {

Expected<ScratchFolder> ScratchFolder::make(const std::string& prefix) {
    std::error_code ec;
    auto base = std::filesystem::temp_directory_path(ec);
    if (ec) return make_error(prefix + ": no temporary folder: " + ec.message());
    std::string pattern = (base / (prefix + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) return make_error(prefix + ": cannot create a folder in " + base.string());
    return ScratchFolder(pattern);
}

ScratchFolder::ScratchFolder(ScratchFolder&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }

ScratchFolder::~ScratchFolder() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

}  // namespace perfgate
