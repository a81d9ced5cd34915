#include <catch2/catch.hpp>

#include <chrono>

#include "perfgate/probes/tool_runner.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;
using namespace std::chrono;

TEST_CASE("run_tool: looked up on the search path, output and exit code returned", "[probes][runner]") {
    const auto dirs = split_search_path(machine_dir("h200") + "/bin:/nonexistent");
    REQUIRE(dirs.size() == 2);
    auto out = run_tool(ToolCall{"nvidia-smi", {"-L"}, {}, false, milliseconds(2000)}, dirs);
    REQUIRE(out);
    CHECK(out->exit_code == 0);
    CHECK(out->text.find("Driver Version: 580.159.04") != std::string::npos);
    auto missing = run_tool(ToolCall{"rocminfo", {}, {}, false, milliseconds(2000)}, dirs);
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("not found") != std::string::npos);
}

TEST_CASE("run_tool: a tool that sleeps 10 s is killed at the 2 s cap", "[probes][runner]") {
    const auto dirs = split_search_path(machine_dir("stub-hang") + "/bin");
    const auto start = steady_clock::now();
    auto out = run_tool(ToolCall{"rocminfo", {}, {}, false, milliseconds(2000)}, dirs);
    const auto elapsed = duration_cast<milliseconds>(steady_clock::now() - start);
    REQUIRE_FALSE(out);
    CHECK(out.error().message.find("killed after 2000 ms") != std::string::npos);
    CHECK(elapsed >= milliseconds(1900));
    CHECK(elapsed < milliseconds(3500));
}

TEST_CASE("run_tool: colour codes are removed, a failing exit code is reported", "[probes][runner]") {
    const auto dirs = split_search_path(machine_dir("stub-garbage") + "/bin");
    auto out = run_tool(ToolCall{"nvidia-smi", {}, {}, false, milliseconds(2000)}, dirs);
    REQUIRE(out);
    CHECK(out->exit_code == 3);
    CHECK(out->text.find('\x1b') == std::string::npos);
}

TEST_CASE("run_tool: stderr merged for runtimes, extra environment passed", "[probes][runner]") {
    auto out = run_tool(ToolCall{"/bin/sh", {"-c", "echo out; echo \"err $PROBE_X\" >&2"}, {{"PROBE_X", "42"}}, true,
                                 milliseconds(2000)},
                        {});
    REQUIRE(out);
    CHECK(out->text.find("out") != std::string::npos);
    CHECK(out->text.find("err 42") != std::string::npos);
}
