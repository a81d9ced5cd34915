#pragma once
// A private folder under the system's temporary folder (mkdtemp: mode 0700, a name no other
// process holds), removed with everything in it when the object goes: for files perfgate writes
// only to read them back (converted rows, valgrind's output files).
#include <filesystem>
#include <string>

#include "perfgate/core/expected.hpp"

namespace perfgate {

class ScratchFolder {
public:
    // `prefix` starts the folder's name ("perfgate-compare"); the error names the folder it tried.
    static Expected<ScratchFolder> make(const std::string& prefix);
    ScratchFolder(ScratchFolder&& other) noexcept;
    ScratchFolder& operator=(ScratchFolder&&) = delete;
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    ~ScratchFolder();
    const std::filesystem::path& path() const { return path_; }

private:
    explicit ScratchFolder(std::filesystem::path p) : path_(std::move(p)) {}
    std::filesystem::path path_;
};

}  // namespace perfgate
