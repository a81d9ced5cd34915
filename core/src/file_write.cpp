#include "perfgate/core/file_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "posix_fd.hpp"

namespace perfgate {

Status replace_file(const std::string& path, std::string_view text) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path target(path);
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (target.has_parent_path()) fs::create_directories(folder, ec);
    // The temporary is a new file with a name nobody can guess (mkostemp: O_CREAT | O_EXCL), in the
    // target's folder so that the rename stays on one file system. A fixed name such as
    // <file>.tmp.<pid> could be planted beforehand as a symbolic link, and opening it would write
    // through the link into whatever it points at.
    std::string tmp = (folder / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
    detail::Fd out(::mkostemp(tmp.data(), O_CLOEXEC));
    if (out.get() < 0) return make_error(path + ": cannot create a temporary file beside it: " + detail::errno_text());
    auto fail = [&](const std::string& what) -> Status {
        ::unlink(tmp.c_str());
        return make_error(path + ": " + what + "; the old file is left as it was");
    };
    // mkostemp creates the file 0600; the files replaced here (host facts, thresholds) are read by
    // others and committed, as an ordinary 0644 file.
    if (::fchmod(out.get(), 0644) != 0) return fail("chmod failed: " + detail::errno_text());
    // A write error (ENOSPC, or EFBIG under a file-size limit, SIGXFSZ being ignored) is a value.
    if (auto w = detail::write_all(out.get(), text); !w) return fail("write failed: " + w.error().message);
    if (::fsync(out.get()) != 0) return fail("fsync failed: " + detail::errno_text());
    if (::rename(tmp.c_str(), path.c_str()) != 0) return fail("cannot replace it: " + detail::errno_text());
    return Ok{};
}

}  // namespace perfgate
