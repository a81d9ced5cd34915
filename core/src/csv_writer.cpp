#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "columns.hpp"
#include "posix_fd.hpp"
#include "perfgate/core/csv.hpp"

namespace perfgate {

std::string escape_csv_field(std::string_view value) {
    if (value.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(value);
    std::string out = "\"";
    for (char c : value) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

const std::vector<std::string>& perfgate_columns() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& c : detail::schema_columns()) v.emplace_back(c.name);
        return v;
    }();
    return names;
}

namespace {

// The `arm` column (perfgate ab) came after the first perfgate files were written. A file of the
// day started before it keeps its header, so rows of a normal run (no arm) are still appended to
// it in its own layout; only an A/B row needs the new column.
constexpr std::string_view kArmColumn = "arm";

std::string header_line(bool with_arm) {
    std::string line;
    for (const auto& name : perfgate_columns()) {
        if (!with_arm && name == kArmColumn) continue;
        if (!line.empty()) line += ',';
        line += name;
    }
    return line;
}

std::string format_row(const ResultRow& row, bool with_arm) {
    std::string line;
    bool first = true;
    for (const auto& c : detail::schema_columns()) {
        if (!with_arm && c.name == kArmColumn) continue;
        if (!first) line += ',';
        first = false;
        line += escape_csv_field(detail::format_field(row, c.field));
    }
    line += '\n';
    return line;
}

}  // namespace

std::string perfgate_header_line() { return header_line(true); }

std::string format_result_row(const ResultRow& row) { return format_row(row, true); }

namespace {

using detail::Fd;

using detail::errno_text;

// Reads the first line and the last byte of an existing file to check it is ours and whole.
// Returns whether the file has the `arm` column (false: perfgate's header from before it).
Expected<bool> check_existing(int fd, off_t size, const std::string& path) {
    std::string head(static_cast<std::size_t>(std::min<off_t>(size, 8192)), '\0');
    if (::pread(fd, head.data(), head.size(), 0) != static_cast<ssize_t>(head.size()))
        return make_error(fmt::format("{}: cannot read the existing header: {}", path, errno_text()));
    auto nl = head.find('\n');
    std::string first = head.substr(0, nl);
    if (!first.empty() && first.back() == '\r') first.pop_back();
    const bool with_arm = first == perfgate_header_line();
    if (!with_arm && first != header_line(false))
        return make_error(fmt::format("{}:1: the existing file does not have perfgate's header; refusing to append "
                                      "perfgate rows to another schema (use a new file or a --suffix)", path));
    char last = 0;
    if (::pread(fd, &last, 1, size - 1) != 1 || last != '\n')
        return make_error(fmt::format("{}: the file does not end with a newline (a torn row?); refusing to append", path));
    return with_arm;
}

}  // namespace

namespace {

// Opens `path` for appending and takes the exclusive lock. perfgate prune replaces the file by a
// rename while holding the same lock, so a lock won on the replaced file is retaken on the new one
// (else the row would go to a file that is no longer in the folder).
Expected<int> open_locked_for_append(const std::string& path) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) return make_error(fmt::format("{}: cannot open for appending: {}", path, errno_text()));
        // The lock serialises concurrent perfgate runs; O_APPEND alone could interleave partial writes.
        if (::flock(fd, LOCK_EX) != 0) {
            ::close(fd);
            return make_error(fmt::format("{}: cannot lock: {}", path, errno_text()));
        }
        struct stat locked {}, named {};
        if (::fstat(fd, &locked) == 0 && ::stat(path.c_str(), &named) == 0 && locked.st_dev == named.st_dev &&
            locked.st_ino == named.st_ino)
            return fd;
        ::close(fd);
    }
    return make_error(fmt::format("{}: the file kept being replaced while waiting for its lock", path));
}

}  // namespace

Status append_results_locked(const std::string& path, const std::vector<ResultRow>& rows) {
    auto opened = open_locked_for_append(path);
    if (!opened) return opened.error();
    Fd fd(*opened);

    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return make_error(fmt::format("{}: cannot stat: {}", path, errno_text()));
    std::string bytes;
    bool with_arm = true;
    if (st.st_size == 0) {
        bytes = perfgate_header_line() + "\n";
    } else {
        Fd reader(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
        if (reader.get() < 0) return make_error(fmt::format("{}: cannot open for reading: {}", path, errno_text()));
        auto existing = check_existing(reader.get(), st.st_size, path);
        if (!existing) return existing.error();
        with_arm = *existing;
    }
    for (const auto& row : rows) {
        if (!with_arm && !row.arm.empty())
            return make_error(fmt::format("{}:1: the file's header has no 'arm' column (written before perfgate ab); "
                                          "refusing to append A/B rows to it (use a new file or a --suffix)", path));
        bytes += format_row(row, with_arm);
    }

    std::size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            std::string why = n < 0 ? errno_text() : "short write";
            // Take back the partial bytes so no reader ever sees a torn row.
            if (::ftruncate(fd.get(), st.st_size) != 0)
                return make_error(fmt::format("{}: write failed ({}), and truncating back to {} bytes failed too: {}",
                                              path, why, st.st_size, errno_text()));
            return make_error(fmt::format("{}: write failed: {}; the file was left as it was before", path, why));
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd.get()) != 0) return make_error(fmt::format("{}: fsync failed: {}", path, errno_text()));
    return Ok{};
}

}  // namespace perfgate
