// Results files are written only as regular files inside the results folder, and a new file
// appears whole (hardening issue, items 3 and 13):
// - a results CSV committed as a symbolic link (to any path) or planted as a FIFO is refused by
//   name, by the appender and by prune, and the link's target is left alone;
// - a new file is created with its header and rows in one step, so a failed write (a full disk)
//   leaves no file at all, never a 0-byte or header-less one under the final name.
#include <catch2/catch.hpp>

#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/csv_prune.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) { return test::fresh_dir("perfgate-file-safety", name); }
using test::read_file;

std::vector<ResultRow> rows(int n, const std::string& run_id = "run-1") {
    std::vector<ResultRow> v;
    for (int i = 0; i < n; ++i) {
        ResultRow r;
        r.model = "m" + std::to_string(i);
        r.decode_tok_s = 60.0 + i;
        r.run_id = run_id;
        v.push_back(r);
    }
    return v;
}

std::size_t entries_in(const fs::path& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("a results CSV that is a symbolic link is refused by name, and its target is untouched", "[csv][append][security]") {
    const auto dir = fresh_dir("symlink");
    fs::create_directories(dir / "results");
    const auto target = dir / "precious.txt";
    std::ofstream(target) << "precious\n";
    const auto csv = dir / "results" / "cpu_h_2026-12-01.csv";

    SECTION("a link to an existing file") {
        fs::create_symlink(target, csv);
        auto r = append_results_locked(csv.string(), rows(1));
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::StartsWith(csv.string()) && Catch::Contains("symbolic link"));
        CHECK(read_file(target) == "precious\n");
        CHECK(fs::is_symlink(csv));
    }
    SECTION("a dangling link: the path it names is not created") {
        const auto elsewhere = dir / "created-elsewhere.csv";
        fs::create_symlink(elsewhere, csv);
        auto r = append_results_locked(csv.string(), rows(1));
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("symbolic link"));
        CHECK_FALSE(fs::exists(elsewhere));
    }
    SECTION("prune refuses the link too, alone or from the folder") {
        // A target that looks like a results file holding the run: prune would rewrite it.
        REQUIRE(append_results_locked((dir / "real.csv").string(), rows(2)));
        const std::string before = read_file(dir / "real.csv");
        fs::create_symlink(dir / "real.csv", csv);
        auto one = prune_run_locked(csv.string(), "run-1");
        REQUIRE_FALSE(one);
        CHECK_THAT(one.error().message, Catch::StartsWith(csv.string()) && Catch::Contains("symbolic link"));
        auto folder = prune_run_in_folder((dir / "results").string(), "run-1");
        REQUIRE_FALSE(folder);
        CHECK_THAT(folder.error().message, Catch::Contains(csv.string()));
        CHECK(read_file(dir / "real.csv") == before);
    }
}

TEST_CASE("a FIFO under a results file's name is refused without blocking", "[csv][append][security]") {
    const auto dir = fresh_dir("fifo");
    const auto csv = dir / "cpu_h_2026-12-01.csv";
    REQUIRE(::mkfifo(csv.c_str(), 0644) == 0);
    auto r = append_results_locked(csv.string(), rows(1));
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::StartsWith(csv.string()));
    auto p = prune_run_locked(csv.string(), "run-1");
    REQUIRE_FALSE(p);
    CHECK_THAT(p.error().message, Catch::StartsWith(csv.string()) && Catch::Contains("not a regular file"));
}

TEST_CASE("a new results file that cannot be written whole is not created at all", "[csv][append][fault]") {
    const auto dir = fresh_dir("create-fails");
    const auto csv = dir / "cpu_h_2026-12-01.csv";
    // In a child: files may hold 100 bytes, less than the header, so the first write fails (EFBIG,
    // as a full disk fails with ENOSPC). Before the fix this left a 0-byte file under the final
    // name, and every later gate of the day stopped on it (exit 2).
    const auto child = test::with_file_size_limit(100, [&] { return append_results_locked(csv.string(), rows(3)); });
    const std::string& msg = child.message;
    INFO(msg);
    CHECK(child.refused);
    CHECK_THAT(msg, Catch::StartsWith(csv.string()) && Catch::Contains("File too large") &&
                        Catch::Contains("nothing was created"));
    CHECK_FALSE(fs::exists(fs::symlink_status(csv)));
    CHECK(entries_in(dir) == 0);  // no temporary file left behind either

    // With room again, the next run creates it whole.
    REQUIRE(append_results_locked(csv.string(), rows(3)));
    auto read = read_results_csv(csv.string());
    REQUIRE(read);
    CHECK(read->rows.size() == 3);
    CHECK(read->warnings.empty());
}

TEST_CASE("a new results file never appears under its name without its header", "[csv][append]") {
    const auto dir = fresh_dir("watch");
    constexpr int kFiles = 200;
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        for (int i = 0; i < kFiles; ++i)
            if (!append_results_locked((dir / ("f" + std::to_string(i) + ".csv")).string(), rows(1))) ::_exit(1);
        ::_exit(0);
    }
    // Watch every name from the moment it exists: it must already hold the header and the row.
    const std::size_t header_size = perfgate_header_line().size() + 1;
    std::size_t seen = 0, too_small = 0;
    for (int i = 0; i < kFiles; ++i) {
        const auto name = dir / ("f" + std::to_string(i) + ".csv");
        struct stat st {};
        for (int spin = 0; spin < 2'000'000 && ::stat(name.c_str(), &st) != 0; ++spin) {}
        if (::stat(name.c_str(), &st) != 0) break;
        ++seen;
        if (static_cast<std::size_t>(st.st_size) <= header_size) ++too_small;
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(seen == kFiles);
    CHECK(too_small == 0);
}
