// Two perfgate prunes (and prunes with appends) on one file at once (issue 26, item 5). A prune
// replaces the file by a rename while holding the lock of the old one; a process that waited for
// that lock must then work on the file now under the name, or what it writes is lost and what
// the first prune removed comes back.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/csv_prune.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

namespace {

ResultRow row(const std::string& model, const std::string& run) {
    ResultRow r;
    r.model = model;
    r.run_id = run;
    r.decode_tok_s = 42.5;
    return r;
}

// Whether some process waits for a flock on the file with inode `ino` (/proc/locks marks a
// waiter "->"): the moment a second prune has opened the old file and blocks on its lock.
bool someone_waits_on(ino_t ino) {
    std::ifstream locks("/proc/locks");
    const std::string key = ":" + std::to_string(ino) + " ";
    for (std::string line; std::getline(locks, line);)
        if (line.find("->") != std::string::npos && line.find(key) != std::string::npos) return true;
    return false;
}

int wait_exit(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The records of a file whose rows hold no line breaks, without the header, sorted.
std::vector<std::string> sorted_records(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) lines.push_back(line + "\n");
    std::sort(lines.begin(), lines.end());
    return lines;
}

}  // namespace

TEST_CASE("a prune that waited for another prune's lock prunes the file that one left", "[csv][prune][race]") {
    const auto dir = test::fresh_dir("perfgate-prune-race", "two-prunes");
    const auto path = (dir / "cpu_h_2026-12-01.csv").string();
    REQUIRE(append_results_locked(path, {row("m1", "keep"), row("m1", "bad-a"), row("m1", "bad-b")}));
    const std::string keep_only = perfgate_header_line() + "\n" + format_result_row(row("m1", "keep"));

    // This process plays the first prune: it holds the lock of the file...
    const int first = ::open(path.c_str(), O_RDWR);
    REQUIRE(first >= 0);
    REQUIRE(::flock(first, LOCK_EX) == 0);
    struct stat old_file {};
    REQUIRE(::fstat(first, &old_file) == 0);
    // ...while the second prune opens that same file and waits for the lock.
    const pid_t second = ::fork();
    REQUIRE(second >= 0);
    if (second == 0) {
        // The inherited descriptor shares the first prune's lock: closed, or the lock outlives it.
        ::close(first);
        auto n = prune_run_locked(path, "bad-b");
        ::_exit(n && *n == 1 ? 0 : 1);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!someone_waits_on(old_file.st_ino) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    REQUIRE(someone_waits_on(old_file.st_ino));
    // The first prune's work: the file without run bad-a, renamed over the old one, then the lock
    // of the old one released.
    auto pruned = prune_run_from_text(test::read_file(path), "bad-a", path);
    REQUIRE(pruned);
    test::write_file(path + ".new", pruned->text);
    REQUIRE(::rename((path + ".new").c_str(), path.c_str()) == 0);
    ::close(first);

    CHECK(wait_exit(second) == 0);
    // Both runs are gone: bad-a did not come back with the second prune's copy of the old file.
    CHECK(test::read_file(path) == keep_only);
}

TEST_CASE("two prunes and two appenders at once: no row lost, no pruned row back", "[csv][prune][race]") {
    const auto dir = test::fresh_dir("perfgate-prune-race", "stress");
    const auto path = (dir / "cpu_h_2026-12-01.csv").string();
    // 20 bad runs of 3 rows each (60 rows to prune), between rows that stay.
    constexpr int kBadRuns = 20, kRowsPerBad = 3, kAppendsEach = 15;
    std::vector<ResultRow> seed;
    std::vector<std::string> expected;
    for (int run = 0; run < kBadRuns; ++run) {
        seed.push_back(row("seed-" + std::to_string(run), "keep"));
        expected.push_back(format_result_row(seed.back()));
        for (int i = 0; i < kRowsPerBad; ++i) seed.push_back(row("m" + std::to_string(i), "bad-" + std::to_string(run)));
    }
    REQUIRE(append_results_locked(path, seed));

    std::vector<pid_t> children;
    for (int p = 0; p < 2; ++p) {  // pruner p removes the bad runs p, p+2, p+4, ...
        const pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            for (int run = p; run < kBadRuns; run += 2) {
                auto n = prune_run_locked(path, "bad-" + std::to_string(run));
                if (!n || *n != kRowsPerBad) ::_exit(1);
            }
            ::_exit(0);
        }
        children.push_back(pid);
    }
    for (int a = 0; a < 2; ++a) {  // appender a adds its rows one append at a time, as perfgate run does
        for (int i = 0; i < kAppendsEach; ++i)
            expected.push_back(format_result_row(row("appended-" + std::to_string(a) + "-" + std::to_string(i), "new")));
        const pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            for (int i = 0; i < kAppendsEach; ++i)
                if (!append_results_locked(path, {row("appended-" + std::to_string(a) + "-" + std::to_string(i), "new")}))
                    ::_exit(1);
            ::_exit(0);
        }
        children.push_back(pid);
    }
    for (pid_t pid : children) CHECK(wait_exit(pid) == 0);

    // Byte for byte: the header, every row that stayed and every appended row, nothing else.
    const std::string text = test::read_file(path);
    CHECK(text.rfind(perfgate_header_line() + "\n", 0) == 0);
    std::sort(expected.begin(), expected.end());
    CHECK(sorted_records(text) == expected);
}
