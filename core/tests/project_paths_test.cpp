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
