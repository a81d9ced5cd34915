// replace_file: a reader sees the old file or the new one, never half of either.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>

#include "perfgate/core/file_write.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

TEST_CASE("replace_file writes the whole text and replaces the old file, leaving no temporary", "[file-write]") {
    const auto dir = test::fresh_dir("perfgate-file-write", "replace");
    const auto path = dir / "sub" / "h200.json";
    REQUIRE(replace_file(path.string(), "{\"old\": 1}\n"));
    REQUIRE(replace_file(path.string(), "{\"new\": 2}\n"));
    CHECK(test::read_file(path) == "{\"new\": 2}\n");
    CHECK(std::distance(fs::directory_iterator(dir / "sub"), fs::directory_iterator()) == 1);
}

TEST_CASE("a write that fails (EFBIG via RLIMIT_FSIZE) leaves the old file as it was", "[file-write][fault]") {
    const auto dir = test::fresh_dir("perfgate-file-write", "fsize");
    const auto path = (dir / "h200.json").string();
    REQUIRE(replace_file(path, "old\n"));
    const auto child = test::with_file_size_limit(100, [&] { return replace_file(path, std::string(4096, 'x')); });
    INFO(child.message);
    CHECK(child.refused);
    CHECK_THAT(child.message, Catch::Contains("left as it was"));
    CHECK(test::read_file(path) == "old\n");
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);  // the temporary is gone
}

TEST_CASE("a symbolic link planted under a temporary's name is never written through", "[file-write][security]") {
    // The temporary used to be <file>.tmp.<pid>, opened with a stream that followed links: a link
    // planted under that name got the new text written into its target, and then became the file.
    const auto dir = test::fresh_dir("perfgate-file-write", "planted-link");
    const auto victim = dir / "victim.txt";
    test::write_file(victim, "not perfgate's\n");
    const auto path = dir / "cpu-epyc.json";
    fs::create_symlink(victim, path.string() + ".tmp." + std::to_string(::getpid()));
    REQUIRE(replace_file(path.string(), "{\"new\": 2}\n"));
    CHECK(test::read_file(victim) == "not perfgate's\n");
    CHECK_FALSE(fs::is_symlink(path));
    CHECK(fs::is_regular_file(path));
    CHECK(test::read_file(path) == "{\"new\": 2}\n");
    // Nothing else was left: the victim, the planted link (untouched) and the file.
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 3);
}
