#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "perfgate/core/csv.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

namespace {
fs::path temp_dir() { return test::temp_dir("append"); }
ResultRow row(const std::string& model, double decode) {
    ResultRow r;
    r.model = model;
    r.decode_tok_s = decode;
    r.prompt = "a, \"quoted\"\nprompt";
    return r;
}
}  // namespace

TEST_CASE("append writes the header once and keeps earlier rows", "[csv][append]") {
    auto path = (temp_dir() / "a.csv").string();
    fs::remove(path);
    REQUIRE(append_results_locked(path, {row("m1", 1.0)}));
    REQUIRE(append_results_locked(path, {row("m2", 2.0), row("m3", 3.0)}));
    auto f = read_results_csv(path);
    REQUIRE(f);
    REQUIRE(f->rows.size() == 3);
    CHECK(f->rows[2].model == "m3");
    CHECK(*f->rows[1].decode_tok_s == 2.0);
}

TEST_CASE("append refuses a file of another schema, and cuts off a torn last row", "[csv][append]") {
    auto dir = temp_dir();
    auto other = (dir / "mlxcel.csv").string();
    std::ofstream(other) << "model,model_path\nx,y\n";
    auto r = append_results_locked(other, {row("m", 1.0)});
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains("mlxcel.csv:1:"));

    auto torn = (dir / "torn.csv").string();
    std::ofstream(torn) << perfgate_header_line() << "\nm1,half-a-row";
    // Not refused (every later run would fail), not glued onto: the torn bytes go first.
    REQUIRE(append_results_locked(torn, {row("m", 1.0)}));
    CHECK(test::read_file(torn) == perfgate_header_line() + "\n" + format_result_row(row("m", 1.0)));
}

TEST_CASE("concurrent appenders lose and interleave nothing", "[csv][append]") {
    auto path = (temp_dir() / "concurrent.csv").string();
    fs::remove(path);
    constexpr int kProcesses = 4, kRows = 50;
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
        pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            for (int i = 0; i < kRows; ++i)
                if (!append_results_locked(path, {row("p" + std::to_string(p) + "-" + std::to_string(i), i)}))
                    ::_exit(1);
            ::_exit(0);
        }
        children.push_back(pid);
    }
    for (pid_t pid : children) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }
    auto f = read_results_csv(path);
    INFO((f ? "" : f.error().message));
    REQUIRE(f);
    CHECK(f->rows.size() == kProcesses * kRows);
    std::set<std::string> names;
    for (const auto& r : f->rows) names.insert(r.model);
    CHECK(names.size() == kProcesses * kRows);
}

TEST_CASE("a read-only directory gives a clear error", "[csv][append]") {
    if (::geteuid() == 0) {
        // root ignores directory permissions; use a path under a file instead, which fails for anyone.
        auto file = temp_dir() / "not-a-dir";
        std::ofstream(file) << "x";
        auto r = append_results_locked((file / "x.csv").string(), {row("m", 1.0)});
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("cannot open for appending"));
        return;
    }
    auto dir = temp_dir() / "ro";
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
    auto r = append_results_locked((dir / "x.csv").string(), {row("m", 1.0)});
    fs::permissions(dir, fs::perms::owner_all);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains("cannot open for appending"));
}

namespace {

// The columns of a serving pair's figures, the last addition to the header.
bool serving_column(const std::string& c) {
    for (const char* k : {"serving_output_tok_s", "ttft_p50_ms", "ttft_p99_ms", "tpot_p50_ms", "tpot_p99_ms", "itl_p50_ms", "itl_p99_ms", "serving_request_s"})
        if (c.rfind(k, 0) == 0) return true;
    return false;
}

}  // namespace

TEST_CASE("the arm column: round-trips, and a file from before it is upgraded to take A/B rows", "[csv][append]") {
    auto path = (temp_dir() / "arm.csv").string();
    fs::remove(path);
    ResultRow head = row("m1", 1.0);
    head.arm = "head";
    REQUIRE(append_results_locked(path, {head}));
    auto f = read_results_csv(path);
    REQUIRE(f);
    CHECK(f->rows[0].arm == "head");

    // A file of the day written before the column existed: perfgate's header without "arm" (and
    // without the columns that came later still). Appending upgrades its header (more in
    // csv_header_upgrade_test.cpp), so the A/B row keeps its arm.
    std::string old_header;
    for (const auto& c : perfgate_columns())
        if (c != "arm" && c != "machine_id" && c != "machine_fingerprint" && c.rfind("peak_", 0) != 0 &&
            c.find("_instructions_per_token") == std::string::npos && c.rfind("prompt_gen_", 0) != 0 && c != "active_model_bytes" && !serving_column(c))
            old_header += (old_header.empty() ? "" : ",") + c;
    auto legacy = (temp_dir() / "legacy.csv").string();
    {
        std::ofstream out(legacy, std::ios::binary);
        out << old_header << '\n';
    }
    REQUIRE(append_results_locked(legacy, {row("m2", 2.0), head}));
    auto g = read_results_csv(legacy);
    REQUIRE(g);
    CHECK(g->generation == CsvGeneration::Perfgate);
    CHECK(g->header == perfgate_columns());
    REQUIRE(g->rows.size() == 2);
    CHECK(g->rows[0].arm.empty());
    CHECK(*g->rows[0].decode_tok_s == 2.0);
    CHECK(g->rows[1].arm == "head");
}

TEST_CASE("the machine columns: after arm, status still last, round-trip, older files read and take rows", "[csv][append]") {
    const auto& columns = perfgate_columns();
    REQUIRE(columns.size() >= 6);
    const std::vector<std::string> tail(columns.end() - 32, columns.end());
    CHECK(tail == std::vector<std::string>{"arm", "machine_id", "machine_fingerprint", "peak_memory_bytes",
                                           "peak_memory_bytes_samples", "peak_device_memory_bytes",
                                           "peak_device_memory_bytes_samples", "prefill_instructions_per_token",
                                           "prefill_instructions_per_token_samples", "decode_instructions_per_token",
                                           "decode_instructions_per_token_samples", "prompt_gen_tok_s",
                                           "prompt_gen_tok_s_samples", "active_model_bytes", "serving_output_tok_s", "serving_output_tok_s_samples", "ttft_p50_ms", "ttft_p50_ms_samples", "ttft_p99_ms", "ttft_p99_ms_samples", "tpot_p50_ms", "tpot_p50_ms_samples", "tpot_p99_ms", "tpot_p99_ms_samples", "itl_p50_ms", "itl_p50_ms_samples", "itl_p99_ms", "itl_p99_ms_samples", "serving_request_s", "serving_request_s_samples",
                                           "timestamp", "status"});

    auto path = (temp_dir() / "machine.csv").string();
    fs::remove(path);
    ResultRow measured = row("m1", 1.0);
    measured.machine_id = "0123456789abcdef";
    measured.machine_fingerprint = "fedcba9876543210";
    REQUIRE(append_results_locked(path, {measured}));
    auto f = read_results_csv(path);
    REQUIRE(f);
    REQUIRE(f->rows.size() == 1);
    CHECK(f->rows[0].machine_id == "0123456789abcdef");
    CHECK(f->rows[0].machine_fingerprint == "fedcba9876543210");

    // A day's file started with the header from before the machine columns (arm already there):
    // its header is upgraded when rows are appended, so they keep their machine fields.
    std::string arm_header;
    for (const auto& c : columns)
        if (c != "machine_id" && c != "machine_fingerprint" && c.rfind("peak_", 0) != 0 &&
            c.find("_instructions_per_token") == std::string::npos && c.rfind("prompt_gen_", 0) != 0 && c != "active_model_bytes" && !serving_column(c))
            arm_header += (arm_header.empty() ? "" : ",") + c;
    auto legacy = (temp_dir() / "before-machine.csv").string();
    {
        std::ofstream out(legacy, std::ios::binary);
        out << arm_header << '\n';
    }
    ResultRow head = measured;
    head.arm = "head";
    REQUIRE(append_results_locked(legacy, {measured, head}));
    auto g = read_results_csv(legacy);
    REQUIRE(g);
    CHECK(g->header.size() == columns.size());
    REQUIRE(g->rows.size() == 2);
    CHECK(g->rows[0].machine_id == "0123456789abcdef");
    CHECK(g->rows[0].machine_fingerprint == "fedcba9876543210");
    CHECK(g->rows[1].arm == "head");
    CHECK(*g->rows[0].decode_tok_s == 1.0);
}
