// perfgate prune reads as every reader of result files does (issue 26, item 13): only regular
// files, at most kMaxResultFileBytes. It read a folder's *.csv with a plain stream that followed a
// link to /dev/zero (bad_alloc), blocked on a FIFO, and read a --results file of any size.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/csv_prune.hpp"
#include "perfgate/core/file_read.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

namespace {

ResultRow row(const std::string& run) {
    ResultRow r;
    r.model = "m-" + run;
    r.run_id = run;
    r.decode_tok_s = 10.0;
    return r;
}

// A file of `bytes` that takes no room on disk (a hole).
void sparse_file(const fs::path& path, std::uint64_t bytes) {
    test::write_file(path, "");
    fs::resize_file(path, bytes);
}

}  // namespace

TEST_CASE("prune passes over a folder's links to devices, FIFOs and folders named *.csv", "[csv][prune][bounds]") {
    const auto dir = test::fresh_dir("perfgate-prune-bounds", "folder");
    const auto holder = (dir / "cpu_h_2026-12-01.csv").string();
    REQUIRE(append_results_locked(holder, {row("bad"), row("good")}));
    fs::create_symlink("/dev/zero", dir / "zero.csv");
    REQUIRE(::mkfifo((dir / "fifo.csv").c_str(), 0600) == 0);
    fs::create_directories(dir / "folder.csv");
    auto pruned = prune_run_in_folder(dir.string(), "bad");
    REQUIRE(pruned);
    REQUIRE(pruned->size() == 1);
    CHECK((*pruned)[0].path == holder);
    CHECK((*pruned)[0].removed == 1);
}

TEST_CASE("prune refuses a results file larger than any result file may be", "[csv][prune][bounds]") {
    const auto dir = test::fresh_dir("perfgate-prune-bounds", "size");
    const auto big = dir / "cpu_h_2026-12-02.csv";
    sparse_file(big, kMaxResultFileBytes + 1);
    auto given = prune_run_locked(big.string(), "bad");
    REQUIRE_FALSE(given);
    CHECK_THAT(given.error().message, Catch::StartsWith(big.string()) && Catch::Contains("more than the"));
    // In a folder too: named, not read.
    auto scanned = prune_run_in_folder(dir.string(), "bad");
    REQUIRE_FALSE(scanned);
    CHECK_THAT(scanned.error().message, Catch::StartsWith(big.string()) && Catch::Contains("more than the"));
    CHECK(fs::file_size(big) == kMaxResultFileBytes + 1);
}

TEST_CASE("a dangling link in the folder does not stop a prune", "[csv][prune][bounds]") {
    const auto dir = test::fresh_dir("perfgate-prune-bounds", "dangling");
    const auto holder = (dir / "cpu_h_2026-12-01.csv").string();
    REQUIRE(append_results_locked(holder, {row("bad"), row("good")}));
    fs::create_symlink(dir / "gone.csv", dir / "dangling.csv");
    auto pruned = prune_run_in_folder(dir.string(), "bad");
    REQUIRE(pruned);
    REQUIRE(pruned->size() == 1);
    CHECK((*pruned)[0].removed == 1);
}
