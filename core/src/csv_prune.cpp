#include "perfgate/core/csv_prune.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <filesystem>

#include "csv_records.hpp"
#include "locked_file.hpp"
#include "perfgate/core/file_read.hpp"
#include "posix_fd.hpp"
#include <vector>

namespace perfgate {
namespace {

using detail::lines_in;
using detail::next_raw_record;

using detail::errno_text;

using detail::Fd;

}  // namespace

Expected<PrunedText> prune_run_from_text(std::string_view text, const std::string& run_id, const std::string& name) {
    if (text.empty()) return make_error(name + ":1: the file is empty (no header)");
    auto header = next_raw_record(text, 0, 1, name);
    if (!header) return header.error();
    std::size_t column = header->fields.size();
    for (std::size_t i = 0; i < header->fields.size(); ++i)
        if (header->fields[i] == "run_id") column = i;
    if (column == header->fields.size())
        return make_error(name + ":1: no run_id column: only perfgate's own CSVs record runs (mlxcel files have one "
                                 "run per file)");
    PrunedText out;
    out.text.append(text.substr(0, header->end));
    std::size_t pos = header->end, line = 1 + lines_in(text, 0, header->end);
    while (pos < text.size()) {
        auto record = next_raw_record(text, pos, line, name);
        if (!record) return record.error();
        const bool blank = record->fields.size() == 1 && record->fields[0].empty();
        if (!blank && record->fields.size() != header->fields.size())
            return make_error(fmt::format("{}:{}: {} fields, the header has {}", name, record->line,
                                          record->fields.size(), header->fields.size()));
        if (!blank && record->fields[column] == run_id) ++out.removed;
        else out.text.append(text.substr(record->begin, record->end - record->begin));
        line += lines_in(text, record->begin, record->end);
        pos = record->end;
    }
    return out;
}

Expected<std::size_t> prune_run_locked(const std::string& path, const std::string& run_id) {
    if (run_id.empty()) return make_error("prune: an empty run id matches nothing");
    // The appenders' lock, on the file that is still under the name once locked (locked_file.hpp):
    // no row is appended between reading the file and replacing it, and a prune that waited for
    // another one's lock prunes the file that one left, not the file it replaced.
    auto locked = detail::open_locked_by_name(path, O_RDWR, "prune", "pruning");
    if (!locked) return locked.error();
    if (!*locked) return make_error(fmt::format("{}: cannot open for pruning: {}", path, std::strerror(ENOENT)));
    Fd fd(**locked);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return make_error(fmt::format("{}: cannot stat: {}", path, errno_text()));
    // The same bound as every reader of result files (file_read.hpp).
    if (static_cast<std::uint64_t>(st.st_size) > kMaxResultFileBytes)
        return make_error(fmt::format("{}: {} bytes, more than the {} bytes ({} MiB) a result file may have", path,
                                      st.st_size, kMaxResultFileBytes, kMaxResultFileBytes >> 20));
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        ssize_t n = ::pread(fd.get(), text.data() + got, text.size() - got, static_cast<off_t>(got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return make_error(fmt::format("{}: cannot read: {}", path, n < 0 ? errno_text() : "short read"));
        got += static_cast<std::size_t>(n);
    }
    auto pruned = prune_run_from_text(text, run_id, path);
    if (!pruned) return pruned.error();
    if (pruned->removed == 0) return std::size_t{0};

    if (auto replaced = detail::replace_locked_file(path, pruned->text, st.st_mode & 07777, "prune"); !replaced)
        return replaced.error();
    return pruned->removed;
}

Expected<std::vector<PrunedFile>> prune_run_in_folder(const std::string& folder, const std::string& run_id) {
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) return make_error(folder + ": no such folder");
    std::vector<std::string> csvs;
    // Only what the other readers of a results folder read: regular files, a link followed to one
    // (refused by name below if it holds the run). A link to /dev/zero, a FIFO or a folder named
    // *.csv is passed over, as the gate's history passes it over.
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        std::error_code kind;  // a dangling link is no regular file, and no reason to stop
        if (entry.path().extension() == ".csv" && entry.is_regular_file(kind)) csvs.push_back(entry.path().string());
    }
    if (ec) return make_error(folder + ": cannot list: " + ec.message());
    std::sort(csvs.begin(), csvs.end());
    std::vector<PrunedFile> pruned;
    for (const auto& csv : csvs) {
        // Only files that mention the id are opened for writing; the others are not perfgate's or
        // hold other runs. Read as every result file is read: a regular file, at most
        // kMaxResultFileBytes.
        auto text = read_regular_file(csv);
        if (!text) return text.error();
        if (text->find(run_id) == std::string::npos) continue;
        auto n = prune_run_locked(csv, run_id);
        if (!n) return n.error();
        if (*n > 0) pruned.push_back({csv, *n});
    }
    return pruned;
}

Expected<std::vector<PrunedFile>> prune_run(const std::vector<std::string>& files, const std::string& folder,
                                            const std::string& run_id) {
    std::vector<PrunedFile> pruned;
    for (const auto& csv : files) {
        auto n = prune_run_locked(csv, run_id);
        if (!n) return n.error();
        pruned.push_back({csv, *n});
    }
    if (folder.empty()) return pruned;
    auto in_folder = prune_run_in_folder(folder, run_id);
    if (!in_folder) return in_folder.error();
    pruned.insert(pruned.end(), in_folder->begin(), in_folder->end());
    return pruned;
}

}  // namespace perfgate
