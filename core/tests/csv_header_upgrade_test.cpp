// A day's file written with one of perfgate's older headers is upgraded in place when rows are
// appended to it: today's header, every earlier record kept byte for byte with an empty field
// where each new column stands, and the new rows with all their fields (machine identity, peak
// memory, an A/B arm).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "perfgate/core/csv.hpp"
#include "test_support.hpp"

using namespace perfgate;
namespace fs = std::filesystem;

namespace {

using Values = std::map<std::string, std::string>;

// An old row as perfgate wrote it: the raw field text of each column (quotes included), written
// here by hand so that the test can tell a copied field from a value formatted again ("62.680"
// would come back as "62.68").
Values old_row(const std::string& model, const std::string& run_id) {
    return {{"model", model},
            {"model_path", "models/" + model},
            {"prompt_tokens", "512"},
            {"generated_tokens", "128"},
            {"decode_tok_s", "62.680"},
            {"decode_tok_s_samples", "62.680;62.681"},
            {"date", "2026-11-29"},
            {"prompt", "\"a, \"\"quoted\"\"\nprompt\""},
            {"mlxcel_version", "v1"},
            {"run_id", run_id},
            {"timestamp", "2026-11-29T10:00:00Z"},
            {"status", "ok"}};
}

// The record over `columns`, each field's raw text or empty.
std::string record(const std::vector<std::string>& columns, const Values& values) {
    std::string line;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (i > 0) line += ',';
        if (auto it = values.find(columns[i]); it != values.end()) line += it->second;
    }
    return line + "\n";
}

std::vector<std::string> without(const std::vector<std::string>& lacking) {
    std::vector<std::string> kept;
    for (const auto& c : perfgate_columns())
        if (std::find(lacking.begin(), lacking.end(), c) == lacking.end()) kept.push_back(c);
    return kept;
}

std::string joined(const std::vector<std::string>& columns) {
    std::string line;
    for (const auto& c : columns) line += (line.empty() ? "" : ",") + c;
    return line;
}

ResultRow new_row() {
    ResultRow r;
    r.model = "m-new";
    r.decode_tok_s = 70.0;
    r.date = "2026-11-30";
    r.prompt = "x";
    r.run_id = "new-run";
    r.arm = "head";
    r.machine_id = "0123456789abcdef";
    r.machine_fingerprint = "fedcba9876543210";
    r.peak_memory_bytes = 536870912.0;
    r.peak_memory_bytes_samples = {536870912.0, 268435456.0};
    r.peak_device_memory_bytes = 2147483648.0;
    r.peak_device_memory_bytes_samples = {2147483648.0, 2146435072.0};
    r.decode_instructions_per_token = 15336217.1875;
    r.decode_instructions_per_token_samples = {15336217.1875};
    r.prompt_gen_tok_s = 81.25;
    r.prompt_gen_tok_s_samples = {81.0, 81.5};
    return r;
}

}  // namespace

TEST_CASE("an older header is upgraded in place, every earlier row kept, when rows are appended", "[csv][append][upgrade]") {
    // Each layout lacks a column and every column that came after it.
    const std::vector<std::string> serving = {"serving_output_tok_s", "serving_output_tok_s_samples", "ttft_p50_ms", "ttft_p50_ms_samples", "ttft_p99_ms", "ttft_p99_ms_samples", "tpot_p50_ms", "tpot_p50_ms_samples", "tpot_p99_ms", "tpot_p99_ms_samples", "itl_p50_ms", "itl_p50_ms_samples", "itl_p99_ms", "itl_p99_ms_samples", "serving_request_s", "serving_request_s_samples"};
    const auto with_serving = [&serving](std::vector<std::string> first) {
        first.insert(first.end(), serving.begin(), serving.end());
        return first;
    };
    const auto and_later = [&with_serving](std::vector<std::string> first) {
        for (const char* c : {"prefill_instructions_per_token", "prefill_instructions_per_token_samples",
                              "decode_instructions_per_token", "decode_instructions_per_token_samples",
                              "prompt_gen_tok_s", "prompt_gen_tok_s_samples", "active_model_bytes"})
            first.push_back(c);
        return with_serving(first);
    };
    const std::vector<std::string> active = with_serving({"active_model_bytes"});
    const std::vector<std::string> prompt_gen = with_serving({"prompt_gen_tok_s", "prompt_gen_tok_s_samples", "active_model_bytes"});
    const std::vector<std::string> instructions = and_later({});
    const std::vector<std::string> device = and_later({"peak_device_memory_bytes", "peak_device_memory_bytes_samples"});
    const std::vector<std::string> peak = and_later({"peak_memory_bytes", "peak_memory_bytes_samples",
                                                     "peak_device_memory_bytes", "peak_device_memory_bytes_samples"});
    const std::vector<std::string> machine_and_peak = and_later({"machine_id", "machine_fingerprint", "peak_memory_bytes",
                                                                 "peak_memory_bytes_samples", "peak_device_memory_bytes",
                                                                 "peak_device_memory_bytes_samples"});
    const std::vector<std::string> arm_machine_and_peak = and_later({"arm", "machine_id", "machine_fingerprint",
                                                                     "peak_memory_bytes", "peak_memory_bytes_samples",
                                                                     "peak_device_memory_bytes",
                                                                     "peak_device_memory_bytes_samples"});
    const auto lacking =
        GENERATE_COPY(values({serving, active, prompt_gen, instructions, device, peak, machine_and_peak, arm_machine_and_peak}));
    const auto old_columns = without(lacking);

    const auto dir = test::fresh_dir("csv-upgrade", "before-" + lacking.front());
    const auto path = (dir / "day.csv").string();
    const auto first = old_row("m-old-1", "old-run"), second = old_row("m-old-2", "old-run");
    {
        std::ofstream out(path, std::ios::binary);
        out << joined(old_columns) << '\n' << record(old_columns, first) << '\n' << record(old_columns, second);
    }
    REQUIRE(read_results_csv(path));  // a readable file of the old layout

    REQUIRE(append_results_locked(path, {new_row()}));

    // Byte for byte: today's header, the old records with empty fields at the new columns (the
    // blank line between them kept), the new row formatted as today.
    const auto columns = perfgate_columns();
    CHECK(test::read_file(path) == perfgate_header_line() + "\n" + record(columns, first) + "\n" +
                                       record(columns, second) + format_result_row(new_row()));
    const auto file = read_results_csv(path);
    REQUIRE(file);
    CHECK(file->header == columns);
    REQUIRE(file->rows.size() == 3);
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& row = file->rows[i];
        CHECK(row.model == (i == 0 ? "m-old-1" : "m-old-2"));
        CHECK(row.decode_tok_s == Approx(62.68));
        CHECK(row.decode_tok_s_samples == std::vector<double>{62.68, 62.681});
        CHECK(row.prompt == "a, \"quoted\"\nprompt");
        CHECK(row.run_id == "old-run");
        CHECK(row.arm.empty());
        CHECK(row.machine_id.empty());
        CHECK_FALSE(row.peak_memory_bytes);
        CHECK_FALSE(row.peak_device_memory_bytes);
        CHECK(row.status.ok());
    }
    const auto& added = file->rows[2];
    CHECK(added.arm == "head");  // an A/B row is no longer refused by an old file
    CHECK(added.machine_id == "0123456789abcdef");
    CHECK(added.machine_fingerprint == "fedcba9876543210");
    CHECK(added.peak_memory_bytes == 536870912.0);
    CHECK(added.peak_memory_bytes_samples == std::vector<double>{536870912.0, 268435456.0});
    CHECK(added.peak_device_memory_bytes == 2147483648.0);
    CHECK(added.peak_device_memory_bytes_samples == std::vector<double>{2147483648.0, 2146435072.0});
    CHECK(added.decode_instructions_per_token == Approx(15336217.1875));
    CHECK(added.prompt_gen_tok_s_samples == std::vector<double>{81.0, 81.5});

    // Nothing is left beside it (the temporary was renamed over the file).
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
    CHECK(entries == 1);

    // The next append is a plain append to today's layout.
    const auto before = test::read_file(path);
    ResultRow later = new_row();
    later.model = "m-later";
    REQUIRE(append_results_locked(path, {later}));
    CHECK(test::read_file(path) == before + format_result_row(later));
}

TEST_CASE("merge into an older file upgrades it too, and a merge that adds nothing leaves it alone", "[csv][append][upgrade]") {
    const auto dir = test::fresh_dir("csv-upgrade", "merge");
    const auto path = (dir / "old.csv").string();
    const auto old_columns = without({"peak_memory_bytes", "peak_memory_bytes_samples", "peak_device_memory_bytes",
                                      "peak_device_memory_bytes_samples", "prefill_instructions_per_token",
                                      "prefill_instructions_per_token_samples", "decode_instructions_per_token",
                                      "decode_instructions_per_token_samples", "prompt_gen_tok_s",
                                      "prompt_gen_tok_s_samples", "active_model_bytes", "serving_output_tok_s", "serving_output_tok_s_samples", "ttft_p50_ms", "ttft_p50_ms_samples", "ttft_p99_ms", "ttft_p99_ms_samples", "tpot_p50_ms", "tpot_p50_ms_samples", "tpot_p99_ms", "tpot_p99_ms_samples", "itl_p50_ms", "itl_p50_ms_samples", "itl_p99_ms", "itl_p99_ms_samples", "serving_request_s", "serving_request_s_samples"});
    const std::string original = joined(old_columns) + "\n" + record(old_columns, old_row("m-old", "old-run"));
    std::ofstream(path, std::ios::binary) << original;

    ResultRow known = new_row();
    known.run_id = "old-run";
    auto none = append_new_runs_locked(path, {known});
    REQUIRE(none);
    CHECK(*none == 0);
    CHECK(test::read_file(path) == original);

    auto one = append_new_runs_locked(path, {known, new_row()});
    REQUIRE(one);
    CHECK(*one == 1);
    CHECK(test::read_file(path) == perfgate_header_line() + "\n" +
                                       record(perfgate_columns(), old_row("m-old", "old-run")) +
                                       format_result_row(new_row()));
}

TEST_CASE("a header that is none of perfgate's layouts is still refused and left as it was", "[csv][append][upgrade]") {
    const auto dir = test::fresh_dir("csv-upgrade", "unknown");
    const auto path = (dir / "unknown.csv").string();
    // perfgate's columns without `timestamp`: no header perfgate ever wrote.
    const auto columns = without({"timestamp"});
    const std::string original = joined(columns) + "\n" + record(columns, old_row("m-old", "old-run"));
    std::ofstream(path, std::ios::binary) << original;
    auto refused = append_results_locked(path, {new_row()});
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains("unknown.csv:1:") && Catch::Contains("perfgate's header"));
    CHECK(test::read_file(path) == original);
}

TEST_CASE("merge: a retry after a kill mid-write completes the run instead of skipping it (issue 48, item 17)",
          "[csv][append][merge][hardening]") {
    const auto dir = test::fresh_dir("csv-upgrade", "killed-merge");
    const auto path = (dir / "cpu_cpu-epyc_2026-12-05.csv").string();
    std::vector<ResultRow> run;
    for (int i = 0; i < 10; ++i) {
        ResultRow r = new_row();
        r.model = "m" + std::to_string(i);
        r.run_id = "big-run";
        run.push_back(r);
    }
    // What a SIGKILL during the single write leaves: the header, three whole rows, half a fourth.
    std::string written = perfgate_header_line() + "\n";
    for (int i = 0; i < 3; ++i) written += format_result_row(run[static_cast<std::size_t>(i)]);
    const std::string fourth = format_result_row(run[3]);
    written += fourth.substr(0, fourth.size() / 2);
    std::ofstream(path, std::ios::binary) << written;

    auto retried = append_new_runs_locked(path, run);
    REQUIRE(retried);
    CHECK(*retried == 7);  // before: 0, the run skipped as "already there" with 3 of its 10 rows
    auto file = read_results_csv(path);
    REQUIRE(file);
    REQUIRE(file->rows.size() == 10);
    for (std::size_t i = 0; i < 10; ++i) CHECK(file->rows[i].model == "m" + std::to_string(i));
    CHECK(file->warnings.empty());
    // Merged again: the whole run is there, nothing is added.
    auto again = append_new_runs_locked(path, run);
    REQUIRE(again);
    CHECK(*again == 0);
    CHECK(read_results_csv(path)->rows.size() == 10);
}
