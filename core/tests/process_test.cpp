// The process runner every launch goes through: /bin/sh scripts written into a temp folder play
// the child, so each property (exit status, timeout, capture bound, environment, cwd, lookup) is
// checked against a program whose behaviour the test fixes.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "perfgate/core/process.hpp"
#include "perfgate/core/search_path.hpp"
#include "perfgate/test/processes.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace perfgate;

namespace {

fs::path script(const fs::path& dir, const std::string& name, const std::string& body) {
    const auto path = dir / name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(path, fs::perms::owner_all);
    return path;
}

}  // namespace

TEST_CASE("run_process returns the exit code and both streams", "[process]") {
    const auto dir = test::fresh_dir("process", "exit");
    ProcessRequest r;
    r.program = script(dir, "exit3", "echo to-out; echo to-err >&2; exit 3").string();
    const auto res = run_process(r);
    REQUIRE(res);
    CHECK(res->exit_code == 3);
    CHECK(res->shell_status() == 3);
    CHECK_FALSE(res->term_signal);
    CHECK_FALSE(res->timed_out);
    CHECK(res->out == "to-out\n");
    CHECK(res->err == "to-err\n");
}

TEST_CASE("run_process reports a signal as 128 + signal", "[process]") {
    const auto dir = test::fresh_dir("process", "signal");
    ProcessRequest r;
    r.program = script(dir, "killself", "kill -TERM $$").string();
    const auto res = run_process(r);
    REQUIRE(res);
    REQUIRE(res->term_signal);
    CHECK(*res->term_signal == SIGTERM);
    CHECK(res->shell_status() == 128 + SIGTERM);
    CHECK(res->peak_rss_bytes);
}

TEST_CASE("run_process reports the peak resident memory of the child", "[process][memory]") {
    constexpr std::uint64_t kMiB = 1024 * 1024;
    // python3 (a dependency of the test suite, scripts/bootstrap) builds a 64 MiB bytes object by
    // repetition, which writes, and so makes resident, every one of its pages.
    const auto python = find_on_path("python3");
    REQUIRE(python);
    ProcessRequest big;
    big.program = *python;
    big.args = {"-c", "b = b'\\x01' * (64 << 20); print(len(b))"};
    const auto grown = run_process(big);
    REQUIRE(grown);
    CHECK(grown->exit_code == 0);
    CHECK(grown->out == std::to_string(64 * kMiB) + "\n");
    REQUIRE(grown->peak_rss_bytes);
    CHECK(*grown->peak_rss_bytes >= 64 * kMiB);

    ProcessRequest small;
    small.program = "true";
    const auto trivial = run_process(small);
    REQUIRE(trivial);
    CHECK(trivial->exit_code == 0);
    REQUIRE(trivial->peak_rss_bytes);
    CHECK(*trivial->peak_rss_bytes > 0);
    // Linux counts the forked copy of this process before exec into the child's peak, so a program
    // smaller than its launcher reports about the launcher's size (46 MiB under AddressSanitizer):
    // the bound is this process's own peak plus a margin, far below the 64 MiB above.
    rusage self{};
    REQUIRE(::getrusage(RUSAGE_SELF, &self) == 0);
    const auto own_peak = static_cast<std::uint64_t>(self.ru_maxrss) * 1024u;
    CHECK(*trivial->peak_rss_bytes < own_peak + 16 * kMiB);
    CHECK(*trivial->peak_rss_bytes < *grown->peak_rss_bytes);

    SECTION("a descendant the child waited for counts, as the largest process, not as a sum") {
        // Two 64 MiB pythons, one after the other: the peak is one of them, not both.
        const auto dir = test::fresh_dir("process", "peak-descendant");
        ProcessRequest shell;
        shell.program = script(dir, "parent", "for i in 1 2; do \"$1\" -c \"b = b'\\x01' * (64 << 20)\"; done\necho waited; exit 4").string();
        shell.args = {*python};
        const auto res = run_process(shell);
        REQUIRE(res);
        CHECK(res->exit_code == 4);
        CHECK(res->out == "waited\n");
        REQUIRE(res->peak_rss_bytes);
        CHECK(*res->peak_rss_bytes >= 64 * kMiB);
        CHECK(*res->peak_rss_bytes < 2 * 64 * kMiB);
    }
}

TEST_CASE("a timeout kills the whole process group, grandchild included", "[process]") {
    const auto dir = test::fresh_dir("process", "timeout");
    const auto pid_file = dir / "grandchild.pid";
    ProcessRequest r;
    // The grandchild is started in the background and would outlive a kill of its parent alone.
    r.program = script(dir, "hang", "sleep 30 &\necho $! > \"$1\"\necho started\nwait").string();
    r.args = {pid_file.string()};
    r.timeout = std::chrono::milliseconds(1000);
    const auto t0 = std::chrono::steady_clock::now();
    const auto res = run_process(r);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(res);
    CHECK(res->timed_out);
    CHECK(res->term_signal == SIGKILL);
    CHECK_FALSE(res->exit_code);
    CHECK(took < 5.0);
    CHECK(res->peak_rss_bytes);  // reaped after the kill, so its usage is known
    CHECK(res->out == "started\n");
    int grandchild = 0;
    std::ifstream(pid_file) >> grandchild;
    REQUIRE(grandchild > 0);
    CHECK(test::process_gone_within(grandchild, std::chrono::milliseconds(1000)));
}

TEST_CASE("a grandchild left behind by a finished child is killed and does not hold the pipes", "[process]") {
    const auto dir = test::fresh_dir("process", "orphan");
    const auto pid_file = dir / "grandchild.pid";
    ProcessRequest r;
    r.program = script(dir, "orphan", "sleep 30 &\necho $! > \"$1\"\necho done").string();
    r.args = {pid_file.string()};
    r.timeout = std::chrono::seconds(20);
    const auto res = run_process(r);
    REQUIRE(res);
    CHECK_FALSE(res->timed_out);
    CHECK(res->exit_code == 0);
    CHECK(res->wall_seconds < 5.0);
    int grandchild = 0;
    std::ifstream(pid_file) >> grandchild;
    REQUIRE(grandchild > 0);
    CHECK(test::process_gone_within(grandchild, std::chrono::milliseconds(1000)));
}

TEST_CASE("a descendant that left the process group with setsid is killed too", "[process]") {
    // Issue 26: such a process was out of reach of the group kill and outlived the run. Its parent
    // exits first, so it is handed to perfgate (the subreaper), found among our children and killed.
    const auto dir = test::fresh_dir("process", "setsid");
    const auto pid_file = dir / "escaped.pid";
    ProcessRequest r;
    r.program = script(dir, "escape",
                       "setsid sh -c 'echo $$ > \"$1\"; exec sleep 30' sh \"$1\" < /dev/null > /dev/null 2>&1 &\n"
                       "while [ ! -s \"$1\" ]; do sleep 0.05; done\necho started")
                    .string();
    r.args = {pid_file.string()};
    r.timeout = std::chrono::seconds(20);
    const auto res = run_process(r);
    REQUIRE(res);
    CHECK(res->exit_code == 0);
    int escaped = 0;
    std::ifstream(pid_file) >> escaped;
    REQUIRE(escaped > 0);
    CHECK(test::process_gone_within(escaped, std::chrono::milliseconds(1000)));
}

TEST_CASE("capture over the bound keeps the head and the tail with the mark between", "[process]") {
    const auto dir = test::fresh_dir("process", "bound");
    ProcessRequest r;
    r.program = script(dir, "flood", "seq 1 100000; seq 1 5 >&2").string();
    r.capture_limit = 1000;
    const auto res = run_process(r);
    REQUIRE(res);
    CHECK(res->out_truncated);
    CHECK_FALSE(res->err_truncated);
    CHECK(res->out.rfind("1\n2\n3\n", 0) == 0);
    CHECK_THAT(res->out, Catch::EndsWith("99999\n100000\n"));
    // seq 1 100000 prints 588895 bytes; 1000 of them are kept.
    CHECK_THAT(res->out, Catch::Contains(dropped_output_mark(588895 - 1000)));
    CHECK(res->out.size() == 1000 + dropped_output_mark(588895 - 1000).size());
    CHECK(res->err == "1\n2\n3\n4\n5\n");
}

TEST_CASE("the environment additions, the working directory and stdin reach the child", "[process]") {
    const auto dir = test::fresh_dir("process", "env-cwd");
    const auto work = dir / "work";
    fs::create_directories(work);
    std::ofstream(dir / "input.txt") << "line from stdin\n";
    ProcessRequest r;
    r.program = script(dir, "show", "echo \"x=$PROCESS_TEST_X\"; pwd; cat; test -n \"$PATH\" && echo has-path").string();
    r.env = {{"PROCESS_TEST_X", "a b;c"}};
    r.cwd = work.string();
    r.stdin_file = (dir / "input.txt").string();
    const auto res = run_process(r);
    REQUIRE(res);
    CHECK(res->out == "x=a b;c\n" + fs::canonical(work).string() + "\nline from stdin\nhas-path\n");

    SECTION("a program named relative to our folder is found when the child runs elsewhere") {
        r.program = fs::relative(r.program, fs::current_path()).string();
        REQUIRE(r.program.find('/') != std::string::npos);
        const auto again = run_process(r);
        REQUIRE(again);
        CHECK(again->out == res->out);
    }
    SECTION("without a stdin file the child reads an empty stdin") {
        r.stdin_file.reset();
        r.cwd.clear();
        const auto again = run_process(r);
        REQUIRE(again);
        CHECK(again->out == "x=a b;c\n" + fs::current_path().string() + "\nhas-path\n");
    }
}

TEST_CASE("merged stderr lands in the stdout capture in order", "[process]") {
    const auto dir = test::fresh_dir("process", "merge");
    ProcessRequest r;
    r.program = script(dir, "both", "echo one; echo two >&2; echo three").string();
    r.merge_stderr = true;
    const auto res = run_process(r);
    REQUIRE(res);
    CHECK(res->out == "one\ntwo\nthree\n");
    CHECK(res->err.empty());
}

TEST_CASE("a program that cannot run is an error value naming it", "[process]") {
    const auto dir = test::fresh_dir("process", "missing");
    ProcessRequest r;
    r.program = (dir / "no-such-tool").string();
    auto res = run_process(r);
    REQUIRE_FALSE(res);
    CHECK_THAT(res.error().message, Catch::Contains(r.program));

    r.program = "perfgate-no-such-program-on-path";
    res = run_process(r);
    REQUIRE_FALSE(res);
    CHECK_THAT(res.error().message, Catch::Contains("perfgate-no-such-program-on-path"));

    r.program = script(dir, "ok", "true").string();
    r.cwd = (dir / "no-such-folder").string();
    res = run_process(r);
    REQUIRE_FALSE(res);
    CHECK_THAT(res.error().message, Catch::Contains(r.program));
    CHECK_THAT(res.error().message, Catch::Contains("no-such-folder"));
}

TEST_CASE("find_on_path takes the first executable match and skips empty entries", "[process][search_path]") {
    const auto dir = test::fresh_dir("process", "search");
    fs::create_directories(dir / "a");
    fs::create_directories(dir / "b");
    std::ofstream(dir / "a" / "tool") << "not executable\n";
    script(dir / "b", "tool", "true");
    script(dir / "a", "other", "true");

    const auto dirs = split_search_path((dir / "a").string() + "::" + (dir / "b").string() + ":");
    REQUIRE(dirs.size() == 2);
    CHECK(find_on_path("tool", dirs) == (dir / "b" / "tool").string());
    CHECK(find_on_path("other", dirs) == (dir / "a" / "other").string());
    CHECK_FALSE(find_on_path("missing", dirs));
    CHECK_FALSE(find_on_path("tool", {}));
    // A name with a '/' is used as it is, never searched.
    CHECK(find_on_path((dir / "b" / "tool").string(), {}) == (dir / "b" / "tool").string());
    CHECK_FALSE(find_on_path((dir / "a" / "tool").string(), dirs));
    CHECK(search_path_dirs(std::string()).empty());
    CHECK(search_path_dirs(std::nullopt) == split_search_path(std::getenv("PATH") ? std::getenv("PATH") : ""));
    CHECK(find_on_path("sh") == find_on_path("sh", search_path_dirs(std::nullopt)));
    CHECK(find_on_path("sh"));
}

TEST_CASE("on_started gets the child's process group before the first tick", "[process]") {
    // The child prints its own process group; the callback must have seen the same id, and the
    // ticks of a run of about 1.5 s come after it.
    const auto dir = test::fresh_dir("process", "started");
    ProcessRequest r;
    r.program = script(dir, "group", "ps -o pgid= -p $$ 2>/dev/null || cut -d' ' -f5 /proc/$$/stat; sleep 1.5").string();
    std::vector<std::string> calls;
    std::int64_t seen = -1;
    r.on_started = [&](std::int64_t group) {
        seen = group;
        calls.push_back("started");
    };
    r.on_tick = [&](double) { calls.push_back("tick"); };
    const auto res = run_process(r);
    REQUIRE(res);
    REQUIRE(res->exit_code == 0);
    CHECK(seen > 1);
    CHECK(std::stoll(res->out) == seen);
    REQUIRE(calls.size() >= 2);
    CHECK(calls.front() == "started");
    CHECK(std::count(calls.begin(), calls.end(), std::string("started")) == 1);
}

TEST_CASE("after a tool ran from a launch's tick, an interrupt still ends the launch's group", "[process]") {
    // The device-memory sampler runs nvidia-smi from the runtime's on_tick. When the nested run
    // ended it used to clear the one slot the termination handlers read, so a Ctrl-C after the
    // first sample left the runtime running. A forked perfgate stand-in runs a long runtime,
    // samples with a nested tool on each tick, and is sent SIGTERM after the first samples.
    const auto dir = test::fresh_dir("process", "nested");
    const auto pid_file = dir / "runtime.pid";
    // The runtime's worker is a grandchild: only the group kill reaches it (the direct child also
    // dies with its parent through the death signal core sets).
    const auto runtime = script(dir, "runtime", "sleep 30 & echo $! > " + pid_file.string() + "; wait");
    const auto tool = script(dir, "tool", "echo inner");
    const pid_t stand_in = ::fork();
    REQUIRE(stand_in >= 0);
    if (stand_in == 0) {
        install_termination_handlers();
        ProcessRequest outer;
        outer.program = runtime.string();
        outer.on_tick = [&](double) {
            ProcessRequest inner;
            inner.program = tool.string();
            (void)run_process(inner);
        };
        (void)run_process(outer);
        std::_Exit(0);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!fs::exists(pid_file) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // two ticks, two nested runs
    ::kill(stand_in, SIGTERM);
    int status = 0;
    ::waitpid(stand_in, &status, 0);
    CHECK(WIFSIGNALED(status));
    REQUIRE(fs::exists(pid_file));
    const pid_t sleeper = static_cast<pid_t>(std::stoll(test::read_file(pid_file)));
    // The handler killed the runtime's group: its worker is gone, not left running for 30 s.
    const bool gone = test::process_gone_within(sleeper, std::chrono::milliseconds(2000));
    if (!gone) ::kill(sleeper, SIGKILL);
    CHECK(gone);
}

TEST_CASE("a tool run from a launch's tick leaves the launch's adopted descendants running", "[process]") {
    // The runtime starts a worker in a session of its own whose parent exits at once, so the worker
    // is handed to us (the subreaper) while a tool run from the first tick is still going. When that
    // nested run ends it must not take the worker for one of its own leftovers: the worker lives to
    // write its marker, and the runtime's own end still cleans up after it.
    const auto dir = test::fresh_dir("process", "nested-adopted");
    const auto marker = dir / "worker-finished";
    ProcessRequest outer;
    outer.program = script(dir, "runtime",
                           "sleep 1.6; ( setsid sh -c 'sleep 1.4; touch " + marker.string() +
                               "' & ) ; sleep 1.9; echo outer done")
                        .string();
    bool tool_ran = false;
    outer.on_tick = [&](double) {
        if (tool_ran) return;
        tool_ran = true;
        ProcessRequest tool;  // from about 1.0 s to 2.5 s: the worker is adopted meanwhile (1.6 s)
        tool.program = script(dir, "tool", "sleep 1.5").string();
        (void)run_process(tool);
    };
    const auto res = run_process(outer);
    REQUIRE(res);
    CHECK(res->out == "outer done\n");
    CHECK(tool_ran);
    CHECK(fs::exists(marker));  // written at about 3.0 s, after the tool's run ended
}
