#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>

#include "perfgate/perf/launcher.hpp"
#include "perfgate/test/processes.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
namespace fs = std::filesystem;

static std::string stub() { return (test::data() / "stub-runtime.sh").string(); }

static std::vector<int> pids_in(const fs::path& file) {
    std::vector<int> pids;
    std::ifstream in(file);
    for (int pid; in >> pid;) pids.push_back(pid);
    return pids;
}

TEST_CASE("launch captures stdout and stderr of an argument vector", "[launcher]") {
    LaunchRequest r;
    r.program = stub();
    r.args = {"print", "mlxcel-generate_m1max_kubesimplify-blog.txt"};
    const auto res = launch(r);
    REQUIRE(res.started);
    CHECK(res.exit_code == 0);
    CHECK_THAT(res.out, Catch::Contains("[Generated 200 tokens in 3.19s = 62.68 tok/s]"));
    CHECK_FALSE(res.timed_out);

    LaunchRequest oom;
    oom.program = stub();
    oom.args = {"oom"};
    const auto o = launch(oom);
    CHECK(o.exit_code == 1);
    CHECK_THAT(o.err, Catch::Contains("out of memory"));
}

TEST_CASE("arguments are never interpreted by a shell", "[launcher]") {
    LaunchRequest r;
    r.program = "echo";  // looked up on PATH
    r.args = {"$HOME", "a;b", "`x`"};
    const auto res = launch(r);
    CHECK(res.out == "$HOME a;b `x`\n");
}

TEST_CASE("the child gets its own environment on top of ours", "[launcher]") {
    LaunchRequest r;
    r.program = "env";
    r.env = {{"PERFGATE_LAUNCH_TEST", "value 1"}};
    const auto res = launch(r);
    CHECK_THAT(res.out, Catch::Contains("PERFGATE_LAUNCH_TEST=value 1"));
    CHECK_THAT(res.out, Catch::Contains("PATH="));
}

TEST_CASE("a timeout kills the whole process group", "[launcher]") {
    const auto dir = test::temp_dir("launcher-timeout");
    LaunchRequest r;
    r.program = stub();
    r.args = {"hang"};
    r.env = {{"STUB_PID_FILE", (dir / "pids").string()}};
    r.timeout = std::chrono::milliseconds(1500);
    const auto t0 = std::chrono::steady_clock::now();
    const auto res = launch(r);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(res.timed_out);
    CHECK(took < 6.0);
    CHECK_THAT(res.out, Catch::Contains("loading model"));
    const auto pids = pids_in(dir / "pids");
    REQUIRE(pids.size() == 1);
    CHECK(perfgate::test::process_gone_within(pids[0], std::chrono::milliseconds(1000)));
}

TEST_CASE("a child that outlives its parent neither blocks nor survives", "[launcher]") {
    const auto dir = test::temp_dir("launcher-orphan");
    LaunchRequest r;
    r.program = stub();
    r.args = {"orphan", "mlxcel-generate_m1max_kubesimplify-blog.txt"};
    r.env = {{"STUB_PID_FILE", (dir / "pids").string()}};
    r.timeout = std::chrono::seconds(20);
    const auto res = launch(r);
    CHECK_FALSE(res.timed_out);
    CHECK(res.exit_code == 0);
    CHECK(res.wall_seconds < 5.0);  // did not wait for the grandchild's pipe
    CHECK_THAT(res.out, Catch::Contains("62.68 tok/s"));
    const auto pids = pids_in(dir / "pids");
    REQUIRE(pids.size() == 1);
    CHECK(perfgate::test::process_gone_within(pids[0], std::chrono::milliseconds(1000)));
}

TEST_CASE("a SIGKILLed child reports the signal", "[launcher]") {
    LaunchRequest r;
    r.program = stub();
    r.args = {"sigkill"};
    const auto res = launch(r);
    REQUIRE(res.term_signal);
    CHECK(*res.term_signal == SIGKILL);
    CHECK(res.shell_status() == 137);
    CHECK_FALSE(res.timed_out);
}

TEST_CASE("capture is bounded, keeping the head and the tail", "[launcher]") {
    LaunchRequest r;
    r.program = "seq";
    r.args = {"1", "300000"};
    r.capture_limit = 10000;
    const auto res = launch(r);
    CHECK(res.truncated);
    CHECK(res.out.size() < 10200);
    CHECK(res.out.rfind("1\n2\n3\n", 0) == 0);
    CHECK_THAT(res.out, Catch::EndsWith("299999\n300000\n"));
}

TEST_CASE("a missing program is reported, not thrown", "[launcher]") {
    LaunchRequest r;
    r.program = "/nonexistent/llama-bench";
    const auto res = launch(r);
    CHECK_FALSE(res.started);
    CHECK_THAT(res.start_error, Catch::Contains("/nonexistent/llama-bench"));
}

TEST_CASE("stderr lines reach the progress callback as they arrive", "[launcher]") {
    LaunchRequest r;
    r.program = stub();
    r.args = {"oom"};
    std::vector<std::string> lines;
    r.on_stderr_line = [&](std::string_view l) { lines.emplace_back(l); };
    launch(r);
    REQUIRE(lines.size() == 1);
    CHECK_THAT(lines[0], Catch::StartsWith("ggml_backend_cuda_buffer_type_alloc_buffer"));
}

TEST_CASE("progress lines arrive while the runtime still runs, and quiet runs get ticks", "[launcher]") {
    LaunchRequest r;
    r.program = "/bin/sh";
    r.args = {"-c", "echo 'llama-bench: benchmark 1/2: prompt run 1/3' >&2; sleep 2.5; echo done >&2"};
    const auto start = std::chrono::steady_clock::now();
    std::vector<double> line_at;  // seconds after the start
    std::vector<double> ticks;
    r.on_stderr_line = [&](std::string_view) {
        line_at.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    };
    r.on_tick = [&](double elapsed) { ticks.push_back(elapsed); };
    const auto res = launch(r);
    REQUIRE(line_at.size() == 2);
    CHECK(line_at[0] < res.wall_seconds - 1.5);  // not held back until the process ended
    CHECK(ticks.size() >= 2);
    CHECK(std::is_sorted(ticks.begin(), ticks.end()));
}

TEST_CASE("the progress callback sees every line while the capture stays bounded", "[launcher]") {
    LaunchRequest r;
    r.program = "/bin/sh";
    r.args = {"-c", "seq 1 100000 >&2"};
    r.capture_limit = 10000;
    std::size_t lines = 0;
    r.on_stderr_line = [&](std::string_view) { ++lines; };
    const auto res = launch(r);
    CHECK(lines == 100000);
    CHECK(res.truncated);
    CHECK(res.err.size() < 10200);
}
