#pragma once
// Files for tests: scratch folders, whole-file reads and writes, and where the fixtures are.
#include <filesystem>
#include <string>
#include <string_view>

namespace perfgate::test {

std::filesystem::path fixture(const std::string& relative);  // tests/fixtures/<relative>
std::string mlxcel_csv(const std::string& name);                     // a historical mlxcel CSV fixture
std::filesystem::path source_path(const std::string& relative);     // <checkout>/<relative>

// A fresh, empty folder <tmp>/<group>-<pid>/<name>; kept after the test so a failure can be looked at.
std::filesystem::path fresh_dir(const std::string& group, const std::string& name);
// <tmp>/perfgate-<tag>-<pid>: emptied the first time this process asks for it (a folder of that name
// is an earlier process's with the same pid, whose files would join this test's), then shared by
// the tests of this process.
std::filesystem::path temp_dir(const std::string& tag);

// A unique folder removed with everything in it when the test's scope ends.
class TempDir {
public:
    explicit TempDir(const std::string& tag = "test");
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::filesystem::path path;
    std::string file(const std::string& name) const { return (path / name).string(); }
    // Like file(), with the parent folders of `name` created.
    std::string sub(const std::string& name) const;
};

// The whole file; throws std::runtime_error when it cannot be read (a test's own mistake).
std::string read_file(const std::filesystem::path& path);
// Replaces the file with `text`, creating its folder; throws std::runtime_error on failure.
void write_file(const std::filesystem::path& path, std::string_view text);

}  // namespace perfgate::test
