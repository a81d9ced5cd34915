#include "locked_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "posix_fd.hpp"

namespace perfgate::detail {

Expected<std::optional<int>> open_locked_by_name(const std::string& path, int access, std::string_view doing,
                                                 std::string_view opening) {
    // Each retry means another process replaced the file meanwhile; 100 in a row is no longer a race.
    for (int attempt = 0; attempt < 100; ++attempt) {
        Fd fd(::open(path.c_str(), access | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        if (fd.get() < 0 && errno == ENOENT) return std::optional<int>{};
        if (fd.get() < 0 && errno == ELOOP)
            return make_error(fmt::format("{}: is a symbolic link; refusing to {} through it (a results file must be "
                                          "a regular file inside its folder)", path, doing));
        if (fd.get() < 0) return make_error(fmt::format("{}: cannot open for {}: {}", path, opening, errno_text()));
        struct stat locked {};
        if (::fstat(fd.get(), &locked) != 0 || !S_ISREG(locked.st_mode))
            return make_error(fmt::format("{}: not a regular file; refusing to {} there", path, doing));
        if (::flock(fd.get(), LOCK_EX) != 0) return make_error(fmt::format("{}: cannot lock: {}", path, errno_text()));
        struct stat named {};
        if (::lstat(path.c_str(), &named) == 0 && locked.st_dev == named.st_dev && locked.st_ino == named.st_ino)
            return std::optional<int>{fd.release()};
    }
    return make_error(fmt::format("{}: the file kept being replaced while waiting for its lock", path));
}

Status replace_locked_file(const std::string& path, std::string_view bytes, unsigned mode, std::string_view purpose) {
    const std::filesystem::path target(path);
    const auto folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    std::string temp = (folder / fmt::format(".{}.{}-XXXXXX", target.filename().string(), purpose)).string();
    Fd out(::mkostemp(temp.data(), O_CLOEXEC));
    if (out.get() < 0) return make_error(fmt::format("{}: cannot create a temporary file beside it: {}", path, errno_text()));
    auto fail = [&](std::string message) -> Status {
        ::unlink(temp.c_str());
        return make_error(std::move(message));
    };
    if (::fchmod(out.get(), static_cast<mode_t>(mode)) != 0) return fail(fmt::format("{}: chmod: {}", temp, errno_text()));
    if (auto w = write_all(out.get(), bytes); !w) return fail(fmt::format("{}: write failed: {}", temp, w.error().message));
    if (::fsync(out.get()) != 0) return fail(fmt::format("{}: fsync failed: {}", temp, errno_text()));
    if (::rename(temp.c_str(), path.c_str()) != 0) return fail(fmt::format("{}: cannot replace it: {}", path, errno_text()));
    Fd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0) ::fsync(dir.get());
    return Ok{};
}

}  // namespace perfgate::detail
