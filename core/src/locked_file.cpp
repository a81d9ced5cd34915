#include "locked_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

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

}  // namespace perfgate::detail
