#include "sources.hpp"

#include <boost/filesystem.hpp>
#include <fmt/format.h>

#include "perfgate/core/file_read.hpp"
#include "perfgate/core/thresholds_file.hpp"
#include "perfgate/gates/git_tree.hpp"

namespace perfgate::gates::detail {
namespace bfs = boost::filesystem;

namespace {

Expected<std::string> read_disk(const std::string& path) { return read_regular_file(path); }

// A path in the repository as written, its own name unresolved: resolving it would follow a
// symbolic link of the working tree (benchmarks -> perf/models) and read another path at the ref.
std::string path_in_repository(const std::string& path, const std::string& root) {
    auto p = bfs::absolute(path).lexically_normal();
    while (p.has_parent_path() && (p.filename() == "." || p.filename().empty())) p = p.parent_path();
    return (bfs::weakly_canonical(p.parent_path()) / p.filename()).lexically_relative(bfs::canonical(root)).generic_string();
}

// The base ref is what a change is measured against: the commit under test (or a commit with the
// very same files) would let the change's own baselines and thresholds judge it.
Status refuse_head_as_ref(const std::string& root, const std::string& ref) {
    auto base = git_commit_of(root, ref);
    if (!base) return make_error("--baseline-ref " + ref + ": not a commit in " + root);
    auto head = git_commit_of(root, "HEAD");
    if (!head) return Ok{};  // no commit checked out: nothing under test can equal the ref
    if (*base == *head)
        return make_error("--baseline-ref " + ref + " is HEAD (" + *head + "), the commit under test: the base ref must be "
                          "the commit the change is measured against (the merge base), never the change itself");
    auto base_tree = run_git(root, {"rev-parse", ref + "^{tree}"}), head_tree = run_git(root, {"rev-parse", "HEAD^{tree}"});
    if (base_tree && head_tree && *base_tree == *head_tree)
        return make_error("--baseline-ref " + ref + " holds exactly the files of HEAD (tree " + (*head_tree).substr(0, 12) +
                          "), the tree under test: its baselines and thresholds would be the change's own");
    return Ok{};
}

std::string series_key_of(const BenchmarkFileName& n) { return n.series + '\x1f' + n.host; }

}  // namespace

std::string identity_of(const std::string& path) {
    boost::system::error_code ec;
    auto p = bfs::weakly_canonical(bfs::absolute(path), ec);
    return ec ? path : p.generic_string();
}

Expected<Sources> Sources::open(const GateOptions& options) {
    Sources s;
    s.options_ = options;
    if (!options.baseline_ref) {
        const std::string& local = options.local_history_dir;
        if (!local.empty() && bfs::is_directory(local) && identity_of(local) != identity_of(options.benchmarks_dir)) {
            s.local_dir_ = local;
            s.notes.push_back(fmt::format("this machine's own earlier runs in {} are history too, beside the reviewed "
                                          "{} (they are not committed; a pull request's gate reads only the latter)",
                                          local, options.benchmarks_dir));
        }
        return s;
    }

    s.from_git_ = true;
    std::string probe = bfs::is_directory(options.benchmarks_dir)   ? options.benchmarks_dir
                        : bfs::is_directory(options.thresholds_dir) ? options.thresholds_dir
                                                                    : std::string(".");
    auto root = git_toplevel(probe);
    if (!root) return make_error("--baseline-ref needs a git checkout: " + root.error().message);
    s.repo_root_ = *root;
    const std::string& ref = *options.baseline_ref;
    if (auto st = refuse_head_as_ref(s.repo_root_, ref); !st) return st.error();
    s.bench_rel_ = path_in_repository(options.benchmarks_dir, s.repo_root_);
    s.thresholds_rel_ = path_in_repository(options.thresholds_dir, s.repo_root_);
    for (const auto& dir : {s.bench_rel_, s.thresholds_rel_}) {
        if (dir.rfind("..", 0) == 0)
            return make_error("--baseline-ref: " + dir + " is outside the repository " + s.repo_root_);
        // Only the ref's own tree decides what is read: a link there could point anywhere.
        auto type = git_entry_type(s.repo_root_, ref, dir);
        if (!type) return type.error();
        if (!type->empty() && *type != "tree")
            return make_error("--baseline-ref: " + ref + ":" + dir + " is a " + (*type == "link" ? "symbolic link" : *type) +
                              ", not a folder; the gate reads baselines and thresholds only from real folders at the ref");
        auto blobs = git_list_files(s.repo_root_, ref, dir);
        if (!blobs) return blobs.error();
        for (auto& b : *blobs) {
            if (b.symlink)
                return make_error("--baseline-ref: " + ref + ":" + b.path +
                                  " is a symbolic link; the gate reads only regular files at the ref");
            s.blob_of_[b.path] = b.object_id;
        }
    }
    s.notes.push_back("benchmarks/ and thresholds/ read as they are at " + *options.baseline_ref +
                      " (pull-request safety); working-tree edits are reported, not used");
    return s;
}

Expected<std::optional<std::string>> Sources::threshold_text(const std::string& file_name) const {
    // The one place a thresholds path is formed: default.json or <valid host tag>.json, nothing
    // that could leave the folder.
    const std::string stem = file_name.size() > 5 ? file_name.substr(0, file_name.size() - 5) : std::string();
    if (file_name.size() <= 5 || file_name.substr(file_name.size() - 5) != ".json" || !thresholds_file_name(stem, file_name))
        return make_error("thresholds file name '" + file_name + "' is not default.json or <valid host tag>.json");
    if (!from_git_) {
        auto path = (bfs::path(options_.thresholds_dir) / file_name).string();
        if (!bfs::exists(path)) return std::optional<std::string>{};
        auto text = read_disk(path);
        if (!text) return text.error();
        return std::optional<std::string>{std::move(*text)};
    }
    auto it = blob_of_.find(thresholds_rel_ + "/" + file_name);
    if (it == blob_of_.end()) return std::optional<std::string>{};
    auto blobs = git_read_blobs(repo_root_, {it->second});
    if (!blobs) return blobs.error();
    return std::optional<std::string>{std::move(blobs->front())};
}

std::string Sources::threshold_display(const std::string& file_name) const {
    if (!from_git_) return (bfs::path(options_.thresholds_dir) / file_name).generic_string();
    return *options_.baseline_ref + ":" + thresholds_rel_ + "/" + file_name;
}

Status Sources::add_history(BenchmarkHistory& history, const std::set<std::string>& wanted,
                            const std::set<std::string>& result_names) const {
    if (!from_git_) {
        for (const std::string& dir : {options_.benchmarks_dir, local_dir_}) {
            if (dir.empty() || !bfs::is_directory(dir)) continue;
            for (const auto& entry : bfs::directory_iterator(dir)) {
                if (!bfs::is_regular_file(entry.status())) continue;
                if (auto bad = impossible_date_in_name(entry.path().generic_string())) return make_error(*bad);
                auto name = parse_benchmark_file_name(entry.path().filename().string());
                if (!name || (!wanted.empty() && !wanted.count(series_key_of(*name)))) continue;
                std::string path = entry.path().generic_string();
                // Resolving a path costs system calls; only a file named like a results file can be one.
                std::string identity = result_names.count(entry.path().filename().string()) ? identity_of(path) : path;
                history.add(HistoryFile{path, identity, *name, [path] { return read_disk(path); }, {}, {}, {}, {}, {},
                                        options_.exclude_run_id});
            }
        }
        return Ok{};
    }
    // At a ref: read every wanted blob through one git process.
    std::vector<std::pair<std::string, BenchmarkFileName>> files;
    std::vector<std::string> ids;
    const std::string prefix = bench_rel_ + "/";
    for (const auto& [path, id] : blob_of_) {
        if (path.rfind(prefix, 0) != 0 || path.find('/', prefix.size()) != std::string::npos) continue;
        if (auto bad = impossible_date_in_name(*options_.baseline_ref + ":" + path)) return make_error(*bad);
        auto name = parse_benchmark_file_name(path);
        if (!name || (!wanted.empty() && !wanted.count(series_key_of(*name)))) continue;
        files.emplace_back(path, *name);
        ids.push_back(id);
    }
    auto blobs = git_read_blobs(repo_root_, ids);
    if (!blobs) return blobs.error();
    for (std::size_t i = 0; i < files.size(); ++i) {
        auto text = std::make_shared<std::string>(std::move((*blobs)[i]));
        std::string display = *options_.baseline_ref + ":" + files[i].first;
        history.add(HistoryFile{display, identity_of((bfs::path(repo_root_) / files[i].first).string()), files[i].second,
                                [text]() -> Expected<std::string> { return *text; }, {}, {}, {}, {}, {}, options_.exclude_run_id});
    }
    return Ok{};
}

Expected<HistoryFile> Sources::baseline_file(const std::string& path) const {
    auto name = parse_benchmark_file_name(path).value_or(BenchmarkFileName{});
    if (from_git_) {
        auto rel = path_in_repository(path, repo_root_);
        if (auto it = blob_of_.find(rel); it != blob_of_.end()) {
            auto blobs = git_read_blobs(repo_root_, {it->second});
            if (!blobs) return blobs.error();
            auto text = std::make_shared<std::string>(std::move(blobs->front()));
            return HistoryFile{*options_.baseline_ref + ":" + rel, identity_of(path), name,
                               [text]() -> Expected<std::string> { return *text; }, {}, {}, {}, {}, {}, options_.exclude_run_id};
        }
    }
    if (!bfs::exists(path)) return make_error(path + ": --baseline file does not exist");
    return HistoryFile{path, identity_of(path), name, [path] { return read_disk(path); }, {}, {}, {}, {}, {}, options_.exclude_run_id};
}

Expected<RefChanges> Sources::pull_request_warnings(const std::set<std::string>& results) const {
    RefChanges found;
    auto& warnings = found.warnings;
    if (!from_git_) return found;
    auto changes = git_changes_since(repo_root_, *options_.baseline_ref, {bench_rel_, thresholds_rel_});
    if (!changes) return changes.error();
    const std::string& ref = *options_.baseline_ref;
    for (const auto& change : *changes) {
        auto space = change.find(' ');
        std::string status = change.substr(0, space), path = change.substr(space + 1);
        bool thresholds = path.rfind(thresholds_rel_ + "/", 0) == 0;
        bool added = status == "A" || status == "??";
        if (thresholds) {
            if (status == "M" || status == "T")
                warnings.push_back(path + " changed since " + ref + " (thresholds edited); the gate used the version at " + ref);
            else if (status == "D")
                warnings.push_back(path + " deleted since " + ref + "; the gate used the version at " + ref);
            else if (added)
                warnings.push_back(path + " added since " + ref + " (new thresholds); not used until merged");
            continue;
        }
        if (path.size() < 4 || path.substr(path.size() - 4) != ".csv") continue;
        if (results.count(identity_of((bfs::path(repo_root_) / path).string()))) continue;
        if (status == "M" || status == "T")
            warnings.push_back(path + " changed since " + ref + " (an existing baseline edited); the gate compared against the version at " + ref);
        else if (status == "D")
            found.failures.push_back(path + " is a baseline at " + ref + " that the working tree no longer has (removed, or "
                                     "its folder replaced): the gate used the version at " + ref +
                                     ", and a change may not remove a baseline");
        else if (added)
            warnings.push_back(path + " added since " + ref + "; not used as a baseline until merged");
    }
    return found;
}

}  // namespace perfgate::gates::detail
