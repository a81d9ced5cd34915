#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <variant>

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

// perfgate's header grew after its first files were written: `arm` (perfgate ab), then
// `machine_id` and `machine_fingerprint` (machine identity). A file of the day started before a
// column keeps its header, and rows are appended to it in that file's own layout, the columns it
// lacks left out. Only a row that needs a missing column is refused (an A/B row's arm); a row's
// machine fields are dropped there, so it gates as the file's other rows do, without identity.
// A layout is the list of today's columns its header lacks; the current one lacks none.
using Layout = std::vector<std::string_view>;

const std::vector<Layout>& known_layouts() {
    static const std::vector<Layout> layouts = {
        {},                                                 // today's header
        {"machine_id", "machine_fingerprint"},              // with arm, before machine identity
        {"arm", "machine_id", "machine_fingerprint"},       // the first perfgate files
    };
    return layouts;
}

bool lacks(const Layout& layout, std::string_view column) {
    return std::find(layout.begin(), layout.end(), column) != layout.end();
}

std::string header_line(const Layout& layout) {
    std::string line;
    for (const auto& name : perfgate_columns()) {
        if (lacks(layout, name)) continue;
        if (!line.empty()) line += ',';
        line += name;
    }
    return line;
}

std::string format_row(const ResultRow& row, const Layout& layout) {
    std::vector<std::string> fields;
    for (const auto& c : detail::schema_columns()) {
        if (lacks(layout, c.name)) continue;
        fields.push_back(escape_csv_field(detail::format_field(row, c.field)));
    }
    return fmt::format("{}\n", fmt::join(fields, ","));
}

}  // namespace

std::string perfgate_header_line() { return header_line(Layout{}); }

std::string format_result_row(const ResultRow& row) { return format_row(row, Layout{}); }

namespace {

using detail::Fd;

using detail::errno_text;
using detail::write_all;

// Reads the first line and the last byte of an existing file to check it is ours and whole.
// Returns the file's layout: one of perfgate's headers, today's or an older one.
Expected<Layout> check_existing(int fd, off_t size, const std::string& path) {
    std::string head(static_cast<std::size_t>(std::min<off_t>(size, 8192)), '\0');
    if (::pread(fd, head.data(), head.size(), 0) != static_cast<ssize_t>(head.size()))
        return make_error(fmt::format("{}: cannot read the existing header: {}", path, errno_text()));
    auto nl = head.find('\n');
    std::string first = head.substr(0, nl);
    if (!first.empty() && first.back() == '\r') first.pop_back();
    const auto& layouts = known_layouts();
    const auto layout = std::find_if(layouts.begin(), layouts.end(), [&](const Layout& l) { return first == header_line(l); });
    if (layout == layouts.end())
        return make_error(fmt::format("{}:1: the existing file does not have perfgate's header; refusing to append "
                                      "perfgate rows to another schema (use a new file or a --suffix)", path));
    char last = 0;
    if (::pread(fd, &last, 1, size - 1) != 1 || last != '\n')
        return make_error(fmt::format("{}: the file does not end with a newline (a torn row?); refusing to append", path));
    return *layout;
}

}  // namespace

namespace {

// Not found: the file does not exist yet and is created whole by create_with_rows().
struct Absent {};

// Opens an existing results file for appending and takes the exclusive lock. A results file must
// be a regular file reached without a symbolic link: a pull request can commit
// benchmarks/<name>.csv as a link to any path, and an append must never land there (O_NOFOLLOW;
// O_NONBLOCK so a FIFO planted under the name cannot block the open). perfgate prune replaces the
// file by a rename while holding the same lock, so a lock won on the replaced file is retaken on
// the new one (else the row would go to a file that is no longer in the folder).
Expected<std::variant<int, Absent>> open_existing_locked(const std::string& path) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT) return std::variant<int, Absent>{Absent{}};
        if (fd < 0 && errno == ELOOP)
            return make_error(fmt::format("{}: is a symbolic link; refusing to write results through it (a results "
                                          "file must be a regular file inside the results folder)", path));
        if (fd < 0) return make_error(fmt::format("{}: cannot open for appending: {}", path, errno_text()));
        struct stat locked {};
        if (::fstat(fd, &locked) != 0 || !S_ISREG(locked.st_mode)) {
            ::close(fd);
            return make_error(fmt::format("{}: not a regular file; refusing to append results to it", path));
        }
        // The lock serialises concurrent perfgate runs; O_APPEND alone could interleave partial writes.
        if (::flock(fd, LOCK_EX) != 0) {
            ::close(fd);
            return make_error(fmt::format("{}: cannot lock: {}", path, errno_text()));
        }
        struct stat named {};
        if (::fstat(fd, &locked) == 0 && ::lstat(path.c_str(), &named) == 0 && locked.st_dev == named.st_dev &&
            locked.st_ino == named.st_ino)
            return std::variant<int, Absent>{fd};
        ::close(fd);
    }
    return make_error(fmt::format("{}: the file kept being replaced while waiting for its lock", path));
}

// Creates `path` holding `bytes` (header and rows) in one step: written and synced under a
// temporary name in the same folder, then given the final name without replacing anything
// (renameat2 RENAME_NOREPLACE, or link() where the file system lacks it). No reader ever sees the
// file empty or header-less, and a full disk leaves no file at all. Returns false when another run
// created the file first (the caller appends to it instead).
Expected<bool> create_with_rows(const std::string& path, const std::string& bytes) {
    const std::filesystem::path target(path);
    const auto folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    std::string temp = (folder / ("." + target.filename().string() + ".new-XXXXXX")).string();
    Fd out(::mkostemp(temp.data(), O_CLOEXEC));
    // Worded as for an existing file: to the user both are "cannot write the results file there".
    if (out.get() < 0) return make_error(fmt::format("{}: cannot open for appending: {}", path, errno_text()));
    auto fail = [&](const std::string& what) -> Expected<bool> {
        ::unlink(temp.c_str());
        return make_error(fmt::format("{}: {}; nothing was created", path, what));
    };
    if (::fchmod(out.get(), 0644) != 0) return fail("chmod failed: " + errno_text());
    if (auto w = write_all(out.get(), bytes); !w) return fail("write failed: " + w.error().message);
    if (::fsync(out.get()) != 0) return fail("fsync failed: " + errno_text());
    int moved = ::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE);
    if (moved != 0 && (errno == EINVAL || errno == ENOSYS)) {
        moved = ::link(temp.c_str(), path.c_str());
        const int saved = errno;
        ::unlink(temp.c_str());
        errno = saved;
    }
    if (moved != 0) {
        const int saved = errno;
        ::unlink(temp.c_str());
        if (saved == EEXIST) return false;
        errno = saved;
        return fail("cannot give it its name: " + errno_text());
    }
    // The new name itself must survive a crash.
    Fd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0) ::fsync(dir.get());
    return true;
}

std::string rows_text(const std::vector<ResultRow>& rows, const Layout& layout) {
    std::string bytes;
    for (const auto& row : rows) bytes += format_row(row, layout);
    return bytes;
}

}  // namespace

Status append_results_locked(const std::string& path, const std::vector<ResultRow>& rows) {
    int opened_fd = -1;
    for (int attempt = 0; opened_fd < 0; ++attempt) {
        auto opened = open_existing_locked(path);
        if (!opened) return opened.error();
        if (auto* fd = std::get_if<int>(&*opened)) {
            opened_fd = *fd;
            break;
        }
        if (attempt == 100) return make_error(fmt::format("{}: kept appearing and disappearing while being created", path));
        auto created = create_with_rows(path, perfgate_header_line() + "\n" + rows_text(rows, Layout{}));
        if (!created) return created.error();
        if (*created) return Ok{};
        // Another run created the file meanwhile: append to it like to any existing file.
    }
    Fd fd(opened_fd);

    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return make_error(fmt::format("{}: cannot stat: {}", path, errno_text()));
    std::string bytes;
    Layout layout;
    if (st.st_size == 0) {
        // An empty file left by an earlier perfgate (which created the file before writing it).
        bytes = perfgate_header_line() + "\n";
    } else {
        Fd reader(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        if (reader.get() < 0) return make_error(fmt::format("{}: cannot open for reading: {}", path, errno_text()));
        auto existing = check_existing(reader.get(), st.st_size, path);
        if (!existing) return existing.error();
        layout = *existing;
    }
    for (const auto& row : rows)
        if (lacks(layout, "arm") && !row.arm.empty())
            return make_error(fmt::format("{}:1: the file's header has no 'arm' column (written before perfgate ab); "
                                          "refusing to append A/B rows to it (use a new file or a --suffix)", path));
    bytes += rows_text(rows, layout);

    if (auto w = write_all(fd.get(), bytes); !w) {
        // Take back the partial bytes so no reader ever sees a torn row.
        if (::ftruncate(fd.get(), st.st_size) != 0)
            return make_error(fmt::format("{}: write failed ({}), and truncating back to {} bytes failed too: {}", path,
                                          w.error().message, st.st_size, errno_text()));
        return make_error(fmt::format("{}: write failed: {}; the file was left as it was before", path, w.error().message));
    }
    if (::fsync(fd.get()) != 0) return make_error(fmt::format("{}: fsync failed: {}", path, errno_text()));
    return Ok{};
}

}  // namespace perfgate
