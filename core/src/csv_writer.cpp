#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <map>
#include <set>
#include <variant>

#include "columns.hpp"
#include "csv_records.hpp"
#include "locked_file.hpp"
#include "perfgate/core/file_read.hpp"
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
// `machine_id` and `machine_fingerprint` (machine identity), then `peak_memory_bytes` and its
// samples, then `peak_device_memory_bytes` and its samples, then the instruction counts per token
// (prefill and decode, each with its samples), then `prompt_gen_tok_s` and its samples (llama-bench
// -pg), then `active_model_bytes` (decode's roofline), then a serving pair's figures, each with its
// samples (docs/serving.md). A day's file started before a column
// is upgraded when rows are appended to it: under the appenders' lock it is rewritten whole with
// today's header, every existing record kept byte for byte except for an empty field inserted
// where each missing column now stands (no value is formatted again), and the new rows follow in
// today's layout (upgrade_to_todays_header). So no row loses a field, and A/B rows are taken like
// any other. Only a header that is none of these is refused. A layout is the list of today's
// columns its header lacks; the current one lacks none.
using Layout = std::vector<std::string_view>;

// The columns each addition brought, oldest first: a header written before addition k lacks the
// columns of k and of every later one.
const std::vector<Layout>& header_additions() {
    static const std::vector<Layout> additions = {
        {"arm"},
        {"machine_id", "machine_fingerprint"},
        {"peak_memory_bytes", "peak_memory_bytes_samples"},
        {"peak_device_memory_bytes", "peak_device_memory_bytes_samples"},
        {"prefill_instructions_per_token", "prefill_instructions_per_token_samples", "decode_instructions_per_token",
         "decode_instructions_per_token_samples"},
        {"prompt_gen_tok_s", "prompt_gen_tok_s_samples"},
        {"active_model_bytes"},
        {"serving_output_tok_s", "serving_output_tok_s_samples", "ttft_p50_ms", "ttft_p50_ms_samples", "ttft_p99_ms", "ttft_p99_ms_samples", "tpot_p50_ms", "tpot_p50_ms_samples", "tpot_p99_ms", "tpot_p99_ms_samples", "itl_p50_ms", "itl_p50_ms_samples", "itl_p99_ms", "itl_p99_ms_samples", "serving_request_s", "serving_request_s_samples"},
    };
    return additions;
}

// Today's layout first, then each older one, newest first.
const std::vector<Layout>& known_layouts() {
    static const std::vector<Layout> layouts = [] {
        std::vector<Layout> out{{}};
        const auto& additions = header_additions();
        Layout lacking;
        for (auto k = additions.size(); k-- > 0;) {
            lacking.insert(lacking.begin(), additions[k].begin(), additions[k].end());
            out.push_back(lacking);
        }
        return out;
    }();
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

// Checks that an existing file is perfgate's from its first line. Returns the file's layout: one
// of perfgate's headers, today's or an older one.
Expected<Layout> check_header(std::string_view text, const std::string& path) {
    std::string first(text.substr(0, text.find('\n')));
    if (!first.empty() && first.back() == '\r') first.pop_back();
    const auto& layouts = known_layouts();
    const auto layout = std::find_if(layouts.begin(), layouts.end(), [&](const Layout& l) { return first == header_line(l); });
    if (layout == layouts.end())
        return make_error(fmt::format("{}:1: the existing file does not have perfgate's header; refusing to append "
                                      "perfgate rows to another schema (use a new file or a --suffix)", path));
    return *layout;
}

// The whole existing file, bounded like every result file perfgate reads.
Expected<std::string> read_locked(int fd, off_t size, const std::string& path) {
    if (static_cast<std::uint64_t>(size) > kMaxResultFileBytes)
        return make_error(fmt::format("{}: {} bytes, more than the {} bytes a result file may have", path, size,
                                      kMaxResultFileBytes));
    std::string text(static_cast<std::size_t>(size), '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::pread(fd, text.data() + got, text.size() - got, static_cast<off_t>(got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return make_error(fmt::format("{}: cannot read: {}", path, n < 0 ? errno_text() : "short read"));
        got += static_cast<std::size_t>(n);
    }
    return text;
}

// The bytes of the complete records: up to the last line end outside a quoted field (a prompt may
// hold line breaks, so the last '\n' of a torn row can lie inside its quotes).
std::size_t complete_records_length(std::string_view text) {
    bool quoted = false;
    std::size_t end = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '"') quoted = !quoted;  // an escaped "" toggles twice
        else if (text[i] == '\n' && !quoted) end = i + 1;
    }
    return end;
}

// A last row without its line end (outside quotes) is what a write cut short left (a crash,
// SIGKILL, an older perfgate killed by SIGXFSZ). Appending after it would glue the new row onto the
// torn one, so the torn bytes are cut off first, under the lock, and the cut is reported
// (docs/csv-schema.md). `keep` is complete_records_length(text). Returns the file's new size.
Expected<off_t> cut_torn_tail(int fd, std::string_view text, std::size_t keep, const std::string& path) {
    if (keep == 0)
        return make_error(fmt::format("{}:1: the header has no line end (a torn file?); refusing to append", path));
    if (::ftruncate(fd, static_cast<off_t>(keep)) != 0)
        return make_error(fmt::format("{}: cannot cut off a torn last row: {}", path, errno_text()));
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(keep), '\n');
    fmt::print(stderr, "perfgate: warning: {}:{}: a torn last row ({} bytes without a line end, left by an "
                       "interrupted write) was cut off before appending\n", path, line, text.size() - keep);
    return static_cast<off_t>(keep);
}

}  // namespace

namespace {

// The text of a file written with an older `layout`, rewritten for today's header: the header
// line replaced, and in each record an empty field inserted at the position of every column the
// layout lacks; the fields it has are copied as written, quotes and all, and so is each record's
// line end. A blank line, and a record whose field count does not match its header (the reader
// refuses it either way), are copied unchanged. `text` holds complete records only.
Expected<std::string> upgrade_to_todays_header(std::string_view text, const Layout& layout, const std::string& path) {
    const auto& columns = perfgate_columns();
    const std::size_t old_count = columns.size() - layout.size();
    auto header = detail::next_raw_record(text, 0, 1, path);
    if (!header) return header.error();
    std::string out = perfgate_header_line();
    out += header->line_end.empty() ? std::string_view("\n") : header->line_end;
    std::size_t pos = header->end, line = 1 + detail::lines_in(text, 0, header->end);
    while (pos < text.size()) {
        auto record = detail::next_raw_record(text, pos, line, path);
        if (!record) return record.error();
        if (record->blank() || record->raw_fields.size() != old_count) {
            out.append(text.substr(record->begin, record->end - record->begin));
        } else {
            std::size_t next = 0;
            for (std::size_t i = 0; i < columns.size(); ++i) {
                if (i > 0) out += ',';
                if (!lacks(layout, columns[i])) out.append(record->raw_fields[next++]);
            }
            out.append(record->line_end);
        }
        line += detail::lines_in(text, record->begin, record->end);
        pos = record->end;
    }
    return out;
}

}  // namespace

namespace {

// Not found: the file does not exist yet and is created whole by create_with_rows().
struct Absent {};

// Opens an existing results file for appending and takes the exclusive lock (locked_file.hpp: a
// regular file reached without a symbolic link, and still the file under the name once locked).
Expected<std::variant<int, Absent>> open_existing_locked(const std::string& path) {
    auto fd = detail::open_locked_by_name(path, O_WRONLY | O_APPEND, "write results", "appending");
    if (!fd) return fd.error();
    if (!*fd) return std::variant<int, Absent>{Absent{}};
    return std::variant<int, Absent>{**fd};
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

namespace {

// Appends `rows` under the lock; with `only_new_runs`, the rows whose run_id the file already
// holds are dropped first (perfgate merge), under the same lock. Returns how many were written.
Expected<std::size_t> append_locked(const std::string& path, std::vector<ResultRow> rows, bool only_new_runs) {
    int opened_fd = -1;
    for (int attempt = 0; opened_fd < 0; ++attempt) {
        auto opened = open_existing_locked(path);
        if (!opened) return opened.error();
        if (auto* fd = std::get_if<int>(&*opened)) {
            opened_fd = *fd;
            break;
        }
        if (attempt == 100) return make_error(fmt::format("{}: kept appearing and disappearing while being created", path));
        if (rows.empty() && only_new_runs) return std::size_t{0};
        auto created = create_with_rows(path, perfgate_header_line() + "\n" + rows_text(rows, Layout{}));
        if (!created) return created.error();
        if (*created) return rows.size();
        // Another run created the file meanwhile: append to it like to any existing file.
    }
    Fd fd(opened_fd);

    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return make_error(fmt::format("{}: cannot stat: {}", path, errno_text()));
    std::string bytes;
    Layout layout;
    std::optional<std::string> existing_text;  // the complete records, when the file has any bytes
    if (st.st_size == 0) {
        // An empty file left by an earlier perfgate (which created the file before writing it).
        bytes = perfgate_header_line() + "\n";
    } else {
        // Read whole (bounded): a torn last row can only be told from a whole one by following
        // the quotes from the start, since a quoted prompt may hold line breaks.
        Fd reader(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        if (reader.get() < 0) return make_error(fmt::format("{}: cannot open for reading: {}", path, errno_text()));
        auto text = read_locked(reader.get(), st.st_size, path);
        if (!text) return text.error();
        auto existing = check_header(*text, path);
        if (!existing) return existing.error();
        layout = *existing;
        if (const std::size_t keep = complete_records_length(*text); keep != text->size()) {
            auto kept = cut_torn_tail(fd.get(), *text, keep, path);
            if (!kept) return kept.error();
            st.st_size = *kept;
            text->resize(keep);
        }
        if (only_new_runs) {
            auto held = parse_results_csv(*text, path);
            if (!held) return held.error();
            // A run the file holds whole is skipped. One it holds the first rows of is a write cut
            // short (a kill during merge; its torn last row was cut above): the rows after those
            // are added, so a retry completes the run instead of skipping it as "already there".
            std::map<std::string, std::size_t> held_rows, seen;
            for (const auto& r : held->rows) ++held_rows[r.run_id];
            std::erase_if(rows, [&](const ResultRow& r) {
                const auto it = held_rows.find(r.run_id);
                return it != held_rows.end() && seen[r.run_id]++ < it->second;
            });
        }
        existing_text = std::move(*text);
    }
    if (!layout.empty()) {
        if (rows.empty()) return std::size_t{0};  // nothing to append: the file stays as it is
        // An older header: the file is replaced by its upgrade with the new rows at its end, in
        // one rename under the lock (those waiting for it then lock the new file).
        auto upgraded = upgrade_to_todays_header(*existing_text, layout, path);
        if (!upgraded) return upgraded.error();
        *upgraded += rows_text(rows, Layout{});
        if (auto replaced = detail::replace_locked_file(path, *upgraded, st.st_mode & 07777, "upgrade"); !replaced)
            return make_error(fmt::format("{}; the file was left as it was", replaced.error().message));
        fmt::print(stderr, "perfgate: {}: header upgraded to today's columns (added: {}); every earlier row kept\n",
                   path, fmt::join(layout, ", "));
        return rows.size();
    }
    bytes += rows_text(rows, layout);
    if (bytes.empty()) return std::size_t{0};

    if (auto w = write_all(fd.get(), bytes); !w) {
        // Take back the partial bytes so no reader ever sees a torn row.
        if (::ftruncate(fd.get(), st.st_size) != 0)
            return make_error(fmt::format("{}: write failed ({}), and truncating back to {} bytes failed too: {}", path,
                                          w.error().message, st.st_size, errno_text()));
        return make_error(fmt::format("{}: write failed: {}; the file was left as it was before", path, w.error().message));
    }
    if (::fsync(fd.get()) != 0) return make_error(fmt::format("{}: fsync failed: {}", path, errno_text()));
    return rows.size();
}

}  // namespace

Status append_results_locked(const std::string& path, const std::vector<ResultRow>& rows) {
    auto written = append_locked(path, rows, false);
    if (!written) return written.error();
    return Ok{};
}

Expected<std::size_t> append_new_runs_locked(const std::string& path, const std::vector<ResultRow>& rows) {
    return append_locked(path, rows, true);
}

}  // namespace perfgate
