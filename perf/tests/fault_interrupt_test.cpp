// Fault tests through the real perfgate executable and ctest: Ctrl-C in the middle of a suite, and
// a results folder that cannot be written.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "perfgate/core/csv.hpp"
#include "perfgate/perf/host_context.hpp"
#include "perfgate/test/processes.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// Starts argv in its own process group with stdout and stderr to `log`; returns its pid.
pid_t spawn(const std::vector<std::string>& argv, const fs::path& log, const std::map<std::string, std::string>& env = {}) {
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    ::setpgid(0, 0);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
}

int wait_for(pid_t pid, std::chrono::seconds limit) {
    const auto end = Clock::now() + limit;
    int status = 0;
    while (Clock::now() < end) {
        if (::waitpid(pid, &status, WNOHANG) == pid) return status;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    FAIL("process " << pid << " did not end within " << limit.count() << " s");
    return status;
}

std::size_t data_rows(const fs::path& csv) {
    std::ifstream in(csv);
    std::size_t lines = 0;
    for (std::string l; std::getline(in, l);) ++lines;
    return lines > 0 ? lines - 1 : 0;
}

}  // namespace

TEST_CASE("ctest interrupted by SIGINT keeps whole rows and leaves no runtime behind", "[fault][ctest]") {
    const auto work = test::temp_dir("interrupt");
    const auto build = work / "build";
    const auto configure_log = work / "configure.log";
    const pid_t cfg = spawn({PERFGATE_CMAKE_COMMAND, "-S", (test::source() / "perf/tests/ctest-selftest").string(), "-B",
                             build.string(), "-DPERFGATE_SOURCE_DIR=" + test::source().string(),
                             "-DPERFGATE_EXECUTABLE=" PERFGATE_EXECUTABLE, "-DPERFGATE_SELFTEST_INTERRUPT=ON"},
                            configure_log);
    const int cfg_status = wait_for(cfg, std::chrono::seconds(120));
    INFO(test::slurp(configure_log));
    REQUIRE(WIFEXITED(cfg_status));
    REQUIRE(WEXITSTATUS(cfg_status) == 0);

    // Four pairs of 2 s each, run one after the other; Ctrl-C once the first row is on disk.
    const auto pids = work / "stub.pids";
    const auto ctest_log = work / "ctest.log";
    const pid_t ctest = spawn({PERFGATE_CTEST_COMMAND, "--test-dir", build.string(), "-L", "perf"}, ctest_log,
                              {{"STUB_PID_FILE", pids.string()}, {"STUB_SLEEP", "2"}});
    fs::path csv;
    const auto give_up = Clock::now() + std::chrono::seconds(60);
    while (Clock::now() < give_up) {
        if (fs::exists(build / "results"))
            for (const auto& e : fs::directory_iterator(build / "results"))
                if (e.path().extension() == ".csv" && data_rows(e.path()) >= 1) csv = e.path();
        if (!csv.empty()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    INFO(test::slurp(ctest_log));
    REQUIRE_FALSE(csv.empty());
    // Into the next pair's run, while its stub sleeps.
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    const std::size_t rows_at_signal = data_rows(csv);
    const auto sent = Clock::now();
    REQUIRE(::kill(-ctest, SIGINT) == 0);  // as Ctrl-C does: the terminal signals the whole group
    const int status = wait_for(ctest, std::chrono::seconds(30));
    const double took = std::chrono::duration<double>(Clock::now() - sent).count();
    CHECK((WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0)));
    // The interrupted pair's stub (and its child) is gone at once, not when its 2 s are over:
    // perfgate killed its process group before dying.
    auto stub_pids = [&] {
        std::vector<int> v;
        std::ifstream in(pids);
        for (int p; in >> p;) v.push_back(p);
        return v;
    };
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    for (int p : stub_pids()) {
        INFO("stub process " << p << " right after the interrupt");
        CHECK_FALSE(perfgate::test::process_alive(p));
    }
    // Longer than one pair takes: a perfgate that outlived the interrupt would finish its pair
    // (a new row) or still be running a stub (checked below).
    std::this_thread::sleep_for(std::chrono::seconds(3));
    CHECK(data_rows(csv) == rows_at_signal);

    // The CSV: only whole rows, each an ok measurement, fewer than the four pairs.
    const std::string text = test::slurp(csv);
    REQUIRE_FALSE(text.empty());
    CHECK(text.back() == '\n');
    auto read = perfgate::read_results_csv(csv.string());
    INFO((read ? "" : read.error().message));
    REQUIRE(read);
    CHECK(read->rows.size() >= 1);
    CHECK(read->rows.size() < 4);
    std::set<std::string> models;
    for (const auto& row : read->rows) {
        CHECK(row.status.text == "ok");
        CHECK(row.decode_tok_s == Approx(62.68));
        models.insert(row.model);
    }
    CHECK(models.size() == read->rows.size());
    CHECK(data_rows(csv) == read->rows.size());

    // No stub (nor the child each stub starts) outlived the interrupt.
    std::vector<int> started;
    {
        std::ifstream in(pids);
        for (int p; in >> p;) started.push_back(p);
    }
    CHECK(started.size() >= 4);  // two pids per started stub: at least the finished one and the interrupted one
    for (int p : started) {
        INFO("stub process " << p);
        CHECK_FALSE(perfgate::test::process_alive(p));
    }
    std::cout << "[fault] SIGINT: ctest ended " << took << " s after the signal; " << read->rows.size()
              << " whole row(s) of 4 pairs kept; " << started.size() / 2 << " stub(s) started, none left\n";
}

TEST_CASE("perfgate run into a read-only results folder fails with exit 2 and a clear error", "[fault][runner]") {
    const auto work = test::temp_dir("readonly");
    const auto ro = work / "benchmarks";
    fs::create_directories(ro);
    // A read-only mount holds for root too; without the right to mount, a path under a regular file.
    fs::path results = ro;
    std::string expect = "Read-only file system";
    const bool mounted = ::mount("tmpfs", ro.c_str(), "tmpfs", MS_RDONLY, "size=64k") == 0;
    if (!mounted) {
        std::ofstream(work / "a-file") << "x";
        results = work / "a-file" / "benchmarks";
        expect = "Not a directory";
        WARN("read-only mount not permitted (" << std::strerror(errno) << "); using a path under a regular file");
    }
    struct Unmount {
        fs::path p;
        bool on;
        ~Unmount() {
            if (on) ::umount2(p.c_str(), MNT_DETACH);
        }
    } unmount{ro, mounted};

    HostContext h;
    h.backend = "rocm";
    h.host = "strixhalo-gfx1151";
    h.device = "AMD Radeon 8060S Graphics";
    h.device_memory_bytes = 96ull << 30;
    h.usable_memory_bytes = 80ull << 30;
    h.memory_is_device = true;
    h.date = "2026-11-29";
    h.run_id = "readonly-test";
    h.replay = "fault_interrupt_test";
    REQUIRE(write_host_context(work / "host.json", h));

    const auto log = work / "run.log";
    const pid_t pid = spawn({PERFGATE_EXECUTABLE, "run", "--suite", (test::data() / "stub-suite.json").string(), "--pair",
                             "stub-ok/small", "--host-json", (work / "host.json").string(), "--results-dir",
                             results.string()},
                            log);
    const int status = wait_for(pid, std::chrono::seconds(60));
    const std::string out = test::slurp(log);
    INFO(out);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);  // an input error, never 0 and never the 77 that CTest shows as Skipped
    CHECK_THAT(out, Catch::Contains(results.string()) && Catch::Contains(expect));
    CHECK_THAT(out, !Catch::Contains("perfgate: stub-ok/small: ok"));
    if (mounted) CHECK(fs::is_empty(ro));
    std::cout << "[fault] read-only results (" << (mounted ? "read-only tmpfs" : "path under a file")
              << "): exit 2, " << out.substr(std::min(out.size(), out.rfind("perfgate run:")));
}
