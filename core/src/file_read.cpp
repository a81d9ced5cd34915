#include "perfgate/core/file_read.hpp"
#include <algorithm>

#include <fmt/format.h>

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_fd.hpp"

namespace perfgate {
namespace {

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO (pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a plain file";
}

}  // namespace

namespace {

// The file's bytes, all of them (at most `max_bytes`, else an error) or, with `prefix`, only its
// first `max_bytes`: the same checks of what the path is either way.
Expected<std::string> read_regular(const std::string& path, std::uint64_t max_bytes, bool prefix) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked on the open
    // descriptor, so the file checked is the file read.
    detail::Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) return make_error(fmt::format("{}: cannot open for reading: {}", path, detail::errno_text()));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return make_error(fmt::format("{}: cannot read: {}", path, detail::errno_text()));
    if (!S_ISREG(st.st_mode))
        return make_error(fmt::format("{}: not a regular file ({}); perfgate reads results only from regular files", path,
                                      kind_of(st.st_mode)));
    const auto size = prefix ? std::min<std::uint64_t>(static_cast<std::uint64_t>(st.st_size), max_bytes)
                             : static_cast<std::uint64_t>(st.st_size);
    if (size > max_bytes)
        return make_error(fmt::format("{}: {} bytes, more than the {} bytes ({} MiB) a result file may have", path, size,
                                      max_bytes, max_bytes >> 20));
    std::string text(static_cast<std::size_t>(size), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::read(fd.get(), text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return make_error(fmt::format("{}: read error: {}", path, detail::errno_text()));
        if (n == 0) break;  // shrank while read: keep what is there, the parser judges it
        done += static_cast<std::size_t>(n);
    }
    text.resize(done);
    return text;
}

}  // namespace

Expected<std::string> read_regular_file(const std::string& path, std::uint64_t max_bytes) {
    return read_regular(path, max_bytes, false);
}

Expected<std::string> read_regular_file_prefix(const std::string& path, std::uint64_t bytes) {
    return read_regular(path, bytes, true);
}

}  // namespace perfgate
