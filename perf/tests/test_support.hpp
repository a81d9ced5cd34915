#pragma once
// What the perf tests add to tests/support: where their data lives and the recorded-file convention.
#include <filesystem>
#include <sstream>
#include <string>

#include "perfgate/test/files.hpp"

namespace perfgate::perf::test {

inline std::filesystem::path fixtures() { return perfgate::test::fixture(""); }
inline std::filesystem::path source() { return perfgate::test::source_path(""); }
inline std::filesystem::path data() { return perfgate::test::source_path("perf/tests/data"); }

// A recorded file without its "# " metadata lines (the fixtures' convention).
inline std::string recorded(const std::filesystem::path& path) {
    std::istringstream in(perfgate::test::read_file(path));
    std::string line, out;
    while (std::getline(in, line))
        if (line.rfind("# ", 0) != 0) out += line + "\n";
    return out;
}

inline std::string slurp(const std::filesystem::path& path) { return perfgate::test::read_file(path); }

// A fresh folder of this test process, named `name`.
inline std::filesystem::path temp_dir(const std::string& name) { return perfgate::test::fresh_dir("perfgate-perf-tests", name); }

}  // namespace perfgate::perf::test
