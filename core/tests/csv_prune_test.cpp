#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "perfgate/core/csv.hpp"
#include "test_support.hpp"
#include "perfgate/core/csv_prune.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

namespace {
fs::path temp_dir() { return test::temp_dir("prune"); }
ResultRow row(const std::string& model, const std::string& run, double decode) {
    ResultRow r;
    r.model = model;
    r.run_id = run;
    r.decode_tok_s = decode;
    r.prompt = "a, \"quoted\"\nprompt over two lines";  // a record that spans lines
    return r;
}
std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
}  // namespace

TEST_CASE("prune removes exactly the run's records and keeps every other byte", "[csv][prune]") {
    const auto path = (temp_dir() / "cpu_h_2026-12-01.csv").string();
    fs::remove(path);
    REQUIRE(append_results_locked(path, {row("m1", "good-1", 10.0), row("m2", "good-1", 11.0)}));
    const std::string before_bad = slurp(path);
    REQUIRE(append_results_locked(path, {row("m1", "bad-2", 3.5), row("m2", "bad-2", 4.0)}));
    const std::string bad_part = slurp(path).substr(before_bad.size());
    REQUIRE(append_results_locked(path, {row("m1", "good-3", 10.5)}));
    const std::string after_bad = slurp(path).substr(before_bad.size() + bad_part.size());

    auto removed = prune_run_locked(path, "bad-2");
    REQUIRE(removed);
    CHECK(*removed == 2);
    // Byte for byte: the file as it would be had the bad run never been appended.
    CHECK(slurp(path) == before_bad + after_bad);
    auto f = read_results_csv(path);
    REQUIRE(f);
    CHECK(f->rows.size() == 3);

    // A run that is not there: the file is not rewritten (same inode, same bytes).
    const auto inode_before = fs::status(path).permissions();
    auto none = prune_run_locked(path, "no-such-run");
    REQUIRE(none);
    CHECK(*none == 0);
    CHECK(slurp(path) == before_bad + after_bad);
    CHECK(fs::status(path).permissions() == inode_before);
    // No temporary file is left beside it.
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(fs::path(path).parent_path())) ++files;
    CHECK(files == 1);
}

TEST_CASE("prune keeps CRLF line endings and unusual quoting of other records", "[csv][prune]") {
    const std::string text =
        "model,run_id,decode_tok_s\r\n"
        "\"m1\",r1,1.0\r\n"
        "m2,\"r2\",2.0\r\n"
        "\"m,3\",r1,3.0\r\n"
        "m4,r3,4.0";  // no final newline
    auto pruned = prune_run_from_text(text, "r1", "x.csv");
    REQUIRE(pruned);
    CHECK(pruned->removed == 2);
    CHECK(pruned->text == "model,run_id,decode_tok_s\r\nm2,\"r2\",2.0\r\nm4,r3,4.0");
}

TEST_CASE("prune refuses files it cannot judge, naming file and line", "[csv][prune]") {
    auto mlxcel = prune_run_from_text("model,decode_tok_s\nm,1\n", "r", "mlx.csv");
    REQUIRE_FALSE(mlxcel);
    CHECK_THAT(mlxcel.error().message, Catch::Contains("mlx.csv:1: no run_id column"));
    auto ragged = prune_run_from_text("model,run_id\nm,r\nm2\n", "r", "rag.csv");
    REQUIRE_FALSE(ragged);
    CHECK_THAT(ragged.error().message, Catch::Contains("rag.csv:3: 1 fields, the header has 2"));
    auto open_quote = prune_run_from_text("model,run_id\n\"m,r\n", "r", "q.csv");
    REQUIRE_FALSE(open_quote);
    CHECK_THAT(open_quote.error().message, Catch::Contains("q.csv:2: unterminated quoted field"));
    // The real mlxcel fixture: refused, untouched.
    auto real = prune_run_locked(test::mlxcel_csv("cuda_gb10_2026-07-12.csv"), "x");
    REQUIRE_FALSE(real);
    CHECK_THAT(real.error().message, Catch::Contains("no run_id column"));
}

TEST_CASE("appends racing a prune all land in the file that stays", "[csv][prune]") {
    const auto path = (temp_dir() / "race.csv").string();
    fs::remove(path);
    REQUIRE(append_results_locked(path, {row("seed", "bad", 1.0)}));
    constexpr int writers = 4, rows_each = 25;
    std::vector<pid_t> children;
    for (int w = 0; w < writers; ++w) {
        pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            for (int i = 0; i < rows_each; ++i)
                if (!append_results_locked(path, {row("w" + std::to_string(w), i % 5 == 0 ? "bad" : "good", i)})) _exit(1);
            _exit(0);
        }
        children.push_back(pid);
    }
    std::size_t pruned = 0;
    for (int i = 0; i < 20; ++i) {
        auto n = prune_run_locked(path, "bad");
        REQUIRE(n);
        pruned += *n;
    }
    for (pid_t pid : children) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    }
    auto rest = prune_run_locked(path, "bad");
    REQUIRE(rest);
    pruned += *rest;
    auto f = read_results_csv(path);
    REQUIRE(f);
    // Every "good" row survived and every "bad" row (the seed and 5 per writer) was removed once.
    CHECK(f->rows.size() == static_cast<std::size_t>(writers * (rows_each - 5)));
    CHECK(pruned == 1 + writers * 5);
    for (const auto& r : f->rows) CHECK(r.run_id == "good");
}

TEST_CASE("prune over files and a folder lists every file it was given and the folder's holders", "[csv][prune]") {
    const fs::path dir = test::temp_dir("prune-many");
    fs::create_directories(dir / "bench");
    const auto given = (dir / "cpu_h_2026-12-01.csv").string();
    const auto holder = (dir / "bench/cpu_h_2026-12-02.csv").string();
    const auto other = (dir / "bench/cpu_h_2026-12-03.csv").string();
    REQUIRE(append_results_locked(given, {row("m1", "good-1", 10.0)}));
    REQUIRE(append_results_locked(holder, {row("m1", "bad-2", 3.0), row("m2", "bad-2", 4.0)}));
    REQUIRE(append_results_locked(other, {row("m1", "good-3", 10.0)}));
    auto pruned = prune_run({given}, (dir / "bench").string(), "bad-2");
    REQUIRE(pruned);
    REQUIRE(pruned->size() == 2);
    CHECK((*pruned)[0].path == given);
    CHECK((*pruned)[0].removed == 0);  // given, so listed even without the run
    CHECK((*pruned)[1].path == holder);
    CHECK((*pruned)[1].removed == 2);
    CHECK(read_results_csv(holder)->rows.empty());
    CHECK(read_results_csv(other)->rows.size() == 1);
    auto missing = prune_run({(dir / "absent.csv").string()}, "", "bad-2");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("absent.csv") != std::string::npos);
}

TEST_CASE("a prune that hits a file-size limit leaves the file and no temporary", "[csv][prune][fault]") {
    // Under RLIMIT_FSIZE (SIGXFSZ ignored, as perfgate's main does) the shorter text still cannot be
    // written: the prune fails with EFBIG, and its .prune-* temporary is removed.
    const fs::path dir = test::fresh_dir("perfgate-prune-fsize", "limit");
    const auto path = (dir / "cpu_h_2026-12-01.csv").string();
    std::vector<ResultRow> rows;
    for (int i = 0; i < 30; ++i) rows.push_back(row("m" + std::to_string(i), i < 2 ? "bad" : "good", i));
    REQUIRE(append_results_locked(path, rows));
    const std::string before = slurp(path);
    const auto child = test::with_file_size_limit(1024, [&]() -> Status {
        auto n = prune_run_locked(path, "bad");
        if (!n) return n.error();
        return Ok{};
    });
    INFO(child.message);
    CHECK(child.refused);
    CHECK_THAT(child.message, Catch::Contains("File too large"));
    CHECK(slurp(path) == before);
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}
