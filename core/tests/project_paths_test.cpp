#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "perfgate/core/project_paths.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

TEST_CASE("paths inside the project are written relative to its root", "[paths]") {
    const fs::path root = "/srv/ci/repo";
    CHECK(project_relative("/srv/ci/repo/build/ci/forged/x.gguf", root) == "build/ci/forged/x.gguf");
    CHECK(project_relative("/srv/ci/repo/./build/../build/y", root) == "build/y");
    CHECK(project_relative("/srv/ci/repository/x", root) == "/srv/ci/repository/x");  // a sibling, not inside
    CHECK(project_relative("/opt/models/z.gguf", root) == "/opt/models/z.gguf");
    CHECK(project_relative("relative/already", root) == "relative/already");
    CHECK(project_relative("/srv/ci/repo/a", fs::path()) == "/srv/ci/repo/a");
    CHECK(project_relative_command("/srv/ci/repo/build/bin/llama-bench -m /srv/ci/repo/m.gguf -p 512 -t 1", root) ==
          "build/bin/llama-bench -m m.gguf -p 512 -t 1");
    CHECK(project_relative_command("", root).empty());
}

TEST_CASE("the project root is the nearest folder with CMakePresets.json or .git", "[paths]") {
    const fs::path tmp = fs::temp_directory_path() / ("perfgate-root-" + std::to_string(::getpid()));
    fs::remove_all(tmp);
    fs::create_directories(tmp / "proj/perf/suites");
    std::ofstream(tmp / "proj/CMakePresets.json") << "{}";
    std::ofstream(tmp / "proj/perf/suites/cpu.json") << "{}";
    auto root = find_project_root(tmp / "proj/perf/suites/cpu.json");
    REQUIRE(root);
    CHECK(*root == fs::weakly_canonical(tmp / "proj"));
    fs::create_directories(tmp / "elsewhere");
    auto none = find_project_root(tmp / "elsewhere");
    // /tmp itself is no project; whatever lies above it must not be one either on a test machine.
    if (none) CHECK(none->string().find("perfgate-root-") == std::string::npos);
    fs::remove_all(tmp);
}

TEST_CASE("paths in a build folder, inside the project or not, are written from a <build> placeholder", "[paths]") {
    const fs::path root = "/srv/ci/repo", build = "/scratch/pg-cuda";
    CHECK(project_relative("/scratch/pg-cuda/forged/x.gguf", root, build) == "<build>/forged/x.gguf");
    // Inside both (the usual build/<preset> folder): the build folder wins, so a run's commands read
    // the same wherever its build folder was.
    CHECK(project_relative("/srv/ci/repo/build/ci/bin/x", root, "/srv/ci/repo/build/ci") == "<build>/bin/x");
    CHECK(project_relative("/srv/ci/repo/perf/models/m.json", root, "/srv/ci/repo/build/ci") == "perf/models/m.json");
    CHECK(project_relative("/opt/llama-bench", root, build) == "/opt/llama-bench");
    CHECK(project_relative_command("/scratch/pg-cuda/llama.cpp/build-cuda/bin/llama-bench -m /scratch/pg-cuda/forged/m.gguf "
                                   "-ngl 99",
                                   root, build) == "<build>/llama.cpp/build-cuda/bin/llama-bench -m <build>/forged/m.gguf -ngl 99");
}

TEST_CASE("the build root is the nearest folder with CMakeCache.txt", "[paths]") {
    const fs::path tmp = fs::temp_directory_path() / ("perfgate-build-" + std::to_string(::getpid()));
    fs::remove_all(tmp);
    fs::create_directories(tmp / "b/forged");
    std::ofstream(tmp / "b/CMakeCache.txt") << "";
    auto found = find_build_root(tmp / "b/forged");
    REQUIRE(found);
    CHECK(*found == fs::weakly_canonical(tmp / "b"));
    fs::create_directories(tmp / "plain");
    auto none = find_build_root(tmp / "plain");
    if (none) CHECK(none->string().find("perfgate-build-") == std::string::npos);
    fs::remove_all(tmp);
}

TEST_CASE("the gate's root is the nearest folder with benchmarks/ or thresholds/, not a file of that name", "[paths]") {
    const test::TempDir scratch("gate-root");
    const fs::path tmp = scratch.path;
    fs::create_directories(tmp / "proj/thresholds");
    fs::create_directories(tmp / "proj/sub/deeper");
    std::ofstream(tmp / "proj/sub/benchmarks") << "a file, not a folder";
    auto root = find_gate_root(tmp / "proj/sub/deeper");
    REQUIRE(root);
    CHECK(*root == tmp / "proj");
    fs::remove(tmp / "proj/sub/benchmarks");
    fs::create_directories(tmp / "proj/sub/benchmarks");
    CHECK(find_gate_root(tmp / "proj/sub/deeper") == tmp / "proj/sub");  // the nearest one wins
    fs::create_directories(tmp / "bare");
    auto none = find_gate_root(tmp / "bare");
    if (none) CHECK(none->string().rfind(tmp.string(), 0) != 0);  // nothing in the scratch folder
}
