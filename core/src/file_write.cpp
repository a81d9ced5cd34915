#include "perfgate/core/file_write.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace perfgate {

Status replace_file(const std::string& path, std::string_view text) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path target(path);
    if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
    // Per process: two writers of the same file never share a temporary.
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return make_error(path + ": cannot write (temporary " + tmp + ")");
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        out.flush();
        if (!out) {
            out.close();
            fs::remove(tmp, ec);
            return make_error(path + ": write failed; the old file is left as it was");
        }
    }
    fs::rename(tmp, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        return make_error(path + ": " + ec.message());
    }
    return Ok{};
}

}  // namespace perfgate
