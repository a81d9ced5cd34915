// Fault test: the disk fills up while a row is appended. The appender must say so and leave the
// file exactly as it was (no torn row), and appending must work again once there is room.
#include <catch2/catch.hpp>

#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "perfgate/core/csv.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) { return test::fresh_dir("perfgate-full-disk", name); }
using test::read_file;

std::vector<ResultRow> rows(const std::string& prefix, int n) {
    std::vector<ResultRow> v;
    for (int i = 0; i < n; ++i) {
        ResultRow r;
        r.model = prefix + std::to_string(i);
        r.decode_tok_s = 60.0 + i;
        r.command = "llama-bench -m /models/" + r.model + ".gguf -p 512 -n 128 -r 3 -o json --progress";
        v.push_back(r);
    }
    return v;
}

// Fills the file system holding `dir` until write() reports it full.
void fill(const fs::path& dir) {
    std::ofstream f(dir / "filler", std::ios::binary);
    const std::string block(4096, 'z');
    while (f.write(block.data(), static_cast<std::streamsize>(block.size()))) {}
    f.close();
    // A final small top-up fills the last partial page too.
    std::ofstream g(dir / "filler2", std::ios::binary);
    for (int i = 0; i < 4096 && g.put('z'); ++i) {}
}

}  // namespace

TEST_CASE("a full disk (ENOSPC) leaves the earlier CSV byte for byte and says so", "[csv][append][fault]") {
    const auto mnt = fresh_dir("tmpfs");
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0) {
        // Not permitted here (not root, or no CAP_SYS_ADMIN): the EFBIG test below injects the failure.
        WARN("tmpfs mount not permitted (" << std::strerror(errno) << "); full disk covered by the injected write failure only");
        return;
    }
    struct Unmount {
        fs::path p;
        ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
    } unmount{mnt};

    const auto csv = mnt / "rocm_h_2026-11-29.csv";
    REQUIRE(append_results_locked(csv.string(), rows("before-", 3)));
    const std::string before = read_file(csv);
    fill(mnt);
    const auto filled = fs::file_size(mnt / "filler") + fs::file_size(mnt / "filler2");

    // Far more than the slack left in the file's last page: some bytes fit, then the disk is full.
    const auto r = append_results_locked(csv.string(), rows("lost-", 200));
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains(csv.string()) && Catch::Contains("No space left on device"));
    CHECK_THAT(r.error().message, Catch::Contains("left as it was"));
    CHECK(read_file(csv) == before);
    auto read = read_results_csv(csv.string());
    REQUIRE(read);
    CHECK(read->rows.size() == 3);

    // Room again: the next append works and follows the earlier rows.
    fs::remove(mnt / "filler");
    fs::remove(mnt / "filler2");
    REQUIRE(append_results_locked(csv.string(), rows("after-", 2)));
    read = read_results_csv(csv.string());
    REQUIRE(read);
    REQUIRE(read->rows.size() == 5);
    CHECK(read->rows[2].model == "before-2");
    CHECK(read->rows[3].model == "after-0");
    CHECK(read_file(csv).rfind(before, 0) == 0);
    std::cout << "[fault] full disk: 64 KiB tmpfs, " << before.size() << "-byte CSV, filler " << filled
              << " bytes; append of 200 rows refused: " << r.error().message << '\n';
}

TEST_CASE("an injected write failure (EFBIG via RLIMIT_FSIZE) leaves the CSV as it was", "[csv][append][fault]") {
    const auto dir = fresh_dir("fsize");
    const auto csv = dir / "cpu_h_2026-11-29.csv";
    REQUIRE(append_results_locked(csv.string(), rows("before-", 3)));
    const std::string before = read_file(csv);

    // In a child: the file may grow by 100 bytes only, so the append is cut short mid-row.
    const auto child = test::with_file_size_limit(static_cast<rlim_t>(before.size() + 100), [&] {
        return append_results_locked(csv.string(), rows("lost-", 20));
    });
    const std::string& msg = child.message;
    INFO(msg);
    CHECK(child.refused);
    CHECK_THAT(msg, Catch::Contains("write failed: File too large") && Catch::Contains("left as it was"));
    CHECK(read_file(csv) == before);
    auto read = read_results_csv(csv.string());
    REQUIRE(read);
    CHECK(read->rows.size() == 3);
    REQUIRE(append_results_locked(csv.string(), rows("after-", 1)));
}
