#include "perfgate/gates/git_tree.hpp"

#include <boost/filesystem.hpp>
#include <fstream>
#include <optional>
#include <sstream>

#include "perfgate/core/process.hpp"
#include "perfgate/core/search_path.hpp"

namespace perfgate::gates {
namespace bfs = boost::filesystem;

namespace {

// A history holds many results files; their blobs come back in one capture, which is not cut.
constexpr std::size_t max_git_output = std::size_t{1} << 30;
// git on a local repository answers in well under a second; this only stops a hung one.
constexpr std::chrono::minutes git_timeout{10};

std::string git_command_text(const std::vector<std::string>& args) {
    std::string s = "git";
    for (const auto& a : args) s += " " + a;
    return s;
}

// The git perfgate was built with (an absolute path), while it is there: a test preset's PATH
// with a git of its own in front (issue 48 item 7) cannot answer for the base ref. A perfgate built
// without git, or moved to a machine whose git lives elsewhere, looks on PATH.
std::optional<std::string> git_program() {
#ifdef PERFGATE_GIT_EXECUTABLE
    if (bfs::is_regular_file(PERFGATE_GIT_EXECUTABLE)) return std::string(PERFGATE_GIT_EXECUTABLE);
#endif
    return find_on_path("git");
}

// Runs git with stdin from `stdin_file` (or nothing); returns its stdout, or an Error with its stderr.
Expected<std::string> run_git_impl(const std::string& work_dir, const std::vector<std::string>& args,
                                   const std::string* stdin_file) {
    const auto git = git_program();
    if (!git) return make_error("git was not found on PATH (needed for --baseline-ref)");
    ProcessRequest request;
    request.program = *git;
    request.args = args;
    request.cwd = work_dir;
    if (stdin_file) request.stdin_file = *stdin_file;
    request.timeout = git_timeout;
    request.capture_limit = max_git_output;
    auto ran = run_process(request);
    if (!ran) return make_error(git_command_text(args) + ": " + ran.error().message);
    if (ran->timed_out)
        return make_error(git_command_text(args) + " (in " + work_dir + ") did not finish within " +
                          std::to_string(git_timeout.count()) + " minutes");
    if (ran->out_truncated)
        return make_error(git_command_text(args) + " (in " + work_dir + ") printed more than " +
                          std::to_string(max_git_output) + " bytes");
    if (ran->shell_status() != 0) {
        std::string errors = ran->err;
        while (!errors.empty() && (errors.back() == '\n' || errors.back() == '\r')) errors.pop_back();
        return make_error(git_command_text(args) + " (in " + work_dir + ") exited " + std::to_string(ran->shell_status()) +
                          ": " + errors);
    }
    return std::move(ran->out);
}

}  // namespace

Expected<std::string> run_git(const std::string& work_dir, const std::vector<std::string>& args) {
    return run_git_impl(work_dir, args, nullptr);
}

Expected<std::string> git_toplevel(const std::string& dir) {
    auto out = run_git(dir, {"rev-parse", "--show-toplevel"});
    if (!out) return out.error();
    std::string top = *out;
    while (!top.empty() && (top.back() == '\n' || top.back() == '\r')) top.pop_back();
    return top;
}

Expected<std::string> git_commit_of(const std::string& repo_root, const std::string& rev) {
    auto out = run_git(repo_root, {"rev-parse", "--verify", "--quiet", rev + "^{commit}"});
    if (!out) return make_error(rev + ": not a commit in " + repo_root);
    std::string id = *out;
    while (!id.empty() && (id.back() == '\n' || id.back() == '\r')) id.pop_back();
    return id;
}

Expected<std::string> git_entry_type(const std::string& repo_root, const std::string& ref,
                                     const std::string& repo_relative_path) {
    // ls-tree of the ref itself, never the working tree: a link there must not redirect the read.
    auto out = run_git(repo_root, {"ls-tree", "-z", "--full-tree", ref, "--", repo_relative_path});
    if (!out) return out.error();
    std::string_view entry = *out;
    if (entry.empty()) return std::string();
    const auto space = entry.find(' '), second = entry.find(' ', space + 1);
    if (space == std::string_view::npos || second == std::string_view::npos)
        return make_error("git ls-tree: unexpected output for " + repo_relative_path);
    if (entry.substr(0, space) == "120000") return std::string("link");
    return std::string(entry.substr(space + 1, second - space - 1));
}

Expected<std::vector<GitBlob>> git_list_files(const std::string& repo_root, const std::string& ref,
                                              const std::string& repo_relative_dir) {
    // Verify the ref first, so a typo is an error rather than an empty history.
    if (auto ok = run_git(repo_root, {"rev-parse", "--verify", "--quiet", ref + "^{commit}"}); !ok)
        return make_error("--baseline-ref " + ref + ": not a commit in " + repo_root);
    auto out = run_git(repo_root, {"ls-tree", "-r", "-z", "--full-tree", ref, "--", repo_relative_dir});
    if (!out) return out.error();
    std::vector<GitBlob> blobs;
    std::string_view text = *out;
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find('\0', start);
        if (end == std::string_view::npos) end = text.size();
        auto entry = text.substr(start, end - start);
        start = end + 1;
        // "<mode> SP <type> SP <object> TAB <path>"
        auto tab = entry.find('\t');
        if (tab == std::string_view::npos) continue;
        auto meta = entry.substr(0, tab);
        auto sp1 = meta.find(' '), sp2 = meta.rfind(' ');
        if (sp1 == std::string_view::npos || sp2 == sp1) continue;
        if (meta.substr(sp1 + 1, sp2 - sp1 - 1) != "blob") continue;
        blobs.push_back(GitBlob{std::string(entry.substr(tab + 1)), std::string(meta.substr(sp2 + 1)),
                                meta.substr(0, sp1) == "120000"});
    }
    return blobs;
}

Expected<std::vector<std::string>> git_read_blobs(const std::string& repo_root,
                                                  const std::vector<std::string>& object_ids) {
    if (object_ids.empty()) return std::vector<std::string>{};
    // The requests go through a temporary file: writing them into a pipe while git fills the other
    // one could block both processes.
    const auto request = bfs::temp_directory_path() / bfs::unique_path("perfgate-cat-file-%%%%-%%%%-%%%%.txt");
    {
        std::ofstream req(request.string(), std::ios::binary);
        for (const auto& id : object_ids) req << id << '\n';
        if (!req) return make_error("cannot write " + request.string());
    }
    const std::string request_path = request.string();
    auto out = run_git_impl(repo_root, {"cat-file", "--batch"}, &request_path);
    boost::system::error_code ignored;
    bfs::remove(request, ignored);
    if (!out) return out.error();

    std::vector<std::string> blobs;
    std::string_view text = *out;
    std::size_t pos = 0;
    for (const auto& id : object_ids) {
        auto eol = text.find('\n', pos);
        if (eol == std::string_view::npos) return make_error("git cat-file: truncated output at " + id);
        auto header = text.substr(pos, eol - pos);  // "<id> blob <size>" or "<id> missing"
        auto last_space = header.rfind(' ');
        if (header.find(" missing") != std::string_view::npos || last_space == std::string_view::npos)
            return make_error("git cat-file: object " + id + " is missing");
        std::size_t size = std::stoull(std::string(header.substr(last_space + 1)));
        pos = eol + 1;
        if (pos + size > text.size()) return make_error("git cat-file: truncated blob " + id);
        blobs.emplace_back(text.substr(pos, size));
        pos += size + 1;  // contents are followed by a newline
    }
    return blobs;
}

Expected<std::vector<std::string>> git_changes_since(const std::string& repo_root, const std::string& ref,
                                                     const std::vector<std::string>& repo_relative_dirs) {
    std::vector<std::string> args{"diff", "--name-status", "--no-renames", ref, "--"};
    args.insert(args.end(), repo_relative_dirs.begin(), repo_relative_dirs.end());
    auto diff = run_git(repo_root, args);
    if (!diff) return diff.error();
    std::vector<std::string> args2{"ls-files", "--others", "--exclude-standard", "--"};
    args2.insert(args2.end(), repo_relative_dirs.begin(), repo_relative_dirs.end());
    auto untracked = run_git(repo_root, args2);
    if (!untracked) return untracked.error();

    std::vector<std::string> changes;
    std::istringstream d(*diff);
    for (std::string line; std::getline(d, line);) {
        auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        changes.push_back(line.substr(0, tab) + " " + line.substr(tab + 1));
    }
    std::istringstream u(*untracked);
    for (std::string line; std::getline(u, line);)
        if (!line.empty()) changes.push_back("?? " + line);
    return changes;
}

}  // namespace perfgate::gates
