// Which program a suite's "binary" names (hardening issue, item 9): a value with a '/' is a path
// relative to the manifest's folder, always; only a bare name is searched on PATH. Before the fix
// "./x" beside a manifest loaded from the working directory normalised to "x", and an impostor
// earlier on PATH ran instead.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "perfgate/perf/launcher.hpp"
#include "perfgate/perf/suite.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
namespace fs = std::filesystem;

namespace {

void write_script(const fs::path& path, const std::string& says) {
    std::ofstream(path) << "#!/bin/sh\necho " << says << "\n";
    fs::permissions(path, fs::perms::owner_all);
}

void write_suite(const fs::path& path, const std::string& binary) {
    std::ofstream(path) << R"({"suite": "x", "backend": "cpu",
  "models": [{"name": "m", "checkpoint": "m.gguf", "weight_bytes": 1000}],
  "runtimes": [{"name": "r", "kind": "command", "binary": ")"
                        << binary << R"(", "args": ["a"],
    "patterns": {"decode_tok_s": "([0-9.]+) tok/s"}}]})";
}

// Runs `body` with the working directory and PATH changed, restoring both afterwards.
template <class F>
void with_cwd_and_path(const fs::path& cwd, const std::string& path, F body) {
    const auto old_cwd = fs::current_path();
    const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    fs::current_path(cwd);
    ::setenv("PATH", path.c_str(), 1);
    try {
        body();
    } catch (...) {
        fs::current_path(old_cwd);
        ::setenv("PATH", old_path.c_str(), 1);
        throw;
    }
    fs::current_path(old_cwd);
    ::setenv("PATH", old_path.c_str(), 1);
}

std::string output_of(const std::string& program) {
    LaunchRequest req;
    req.program = program;
    req.timeout = std::chrono::milliseconds(10'000);
    auto r = launch(req);
    INFO(r.start_error);
    REQUIRE(r.exit_code);
    return r.out;
}

}  // namespace

TEST_CASE("a suite binary with a '/' runs the file beside the manifest, never one found on PATH", "[suite][security]") {
    const auto dir = test::temp_dir("binary-lookup");
    const auto impostors = dir / "impostors", suites = dir / "suites";
    fs::create_directories(impostors);
    fs::create_directories(suites / "tools");
    write_script(impostors / "x", "impostor");
    write_script(suites / "x", "real");
    write_script(suites / "tools" / "x", "real-tools");
    const std::string path = impostors.string() + ":/usr/bin:/bin";

    struct Case {
        const char* what;
        std::string binary;
        fs::path cwd;
        const char* manifest;  // as given to load_suite, relative to cwd
        const char* runs;      // what the program that ran printed
    };
    const Case cases[] = {
        {"./x, manifest loaded from the working directory", "./x", suites, "suite.json", "real"},
        {"tools/../x normalises to a bare name too", "tools/../x", suites, "suite.json", "real"},
        {"./tools/x, manifest loaded through a relative folder", "./tools/x", dir, "suites/suite.json", "real-tools"},
        {"a bare name is still searched on PATH", "x", suites, "suite.json", "impostor"},
        {"an absolute path stays absolute", (suites / "tools" / "x").string(), dir, "suites/suite.json", "real-tools"},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        write_suite(suites / "suite.json", c.binary);
        with_cwd_and_path(c.cwd, path, [&] {
            auto s = load_suite(c.manifest);
            INFO((s ? std::string() : s.error().message));
            REQUIRE(s);
            const std::string& program = s->runtimes[0].binary;
            // Only a bare name may reach the PATH search; an absolute one is kept as written.
            CHECK((program.find('/') == std::string::npos) == (c.binary == "x"));
            if (c.binary.front() == '/') CHECK(program == c.binary);
            CHECK(output_of(program) == std::string(c.runs) + "\n");
        });
    }
}
