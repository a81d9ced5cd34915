// llama-bench -o sql: the real output of the pinned build (perf/tests/data/recorded/README.md),
// read against -o csv of the same command, and the shapes of bad input the reader refuses.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "perfgate/perf/llama_bench_tests.hpp"
#include "perfgate/perf/result_files.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
namespace fs = std::filesystem;

namespace {
std::string output(const std::string& name) { return test::slurp(test::data() / "recorded/llama-bench-outputs" / name); }

// The 1-based line of the n-th (0-based) line of `text` that starts with `prefix`.
std::size_t line_starting(const std::string& text, const std::string& prefix, std::size_t n = 0) {
    std::istringstream in(text);
    std::size_t line = 0;
    for (std::string l; std::getline(in, l);) {
        ++line;
        if (l.rfind(prefix, 0) == 0 && n-- == 0) return line;
    }
    return 0;
}

// -o csv's quoted fields (llama-bench quotes every one; none of run-a.csv's holds a comma or quote).
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string f; std::getline(in, f, ',');) out.push_back(f.size() >= 2 && f.front() == '"' ? f.substr(1, f.size() - 2) : f);
    return out;
}

// run-a.csv's rows as the INSERT statements -o sql prints (after run-a.sql's own CREATE TABLE), a
// quote in a value doubled: the same values in both formats, so every field can be compared.
std::string csv_as_sql(const std::string& csv, const std::string& create_table) {
    std::istringstream in(csv);
    std::string header, line, out = create_table;
    std::getline(in, header);
    const auto names = csv_fields(header);
    while (std::getline(in, line)) {
        std::string values;
        for (auto v : csv_fields(line)) {
            for (std::size_t at = v.find('\''); at != std::string::npos; at = v.find('\'', at + 2)) v.insert(at, "'");
            values += (values.empty() ? "'" : ", '") + v + "'";
        }
        std::string columns;
        for (const auto& n : names) columns += (columns.empty() ? "" : ", ") + n;
        out += "INSERT INTO llama_bench (" + columns + ") VALUES (" + values + ");\n";
    }
    return out;
}
}  // namespace

TEST_CASE("llama-bench -o sql: the pinned build's real output, one INSERT per test", "[llama-bench][sql]") {
    for (const char* run : {"run-a", "run-b"}) {
        INFO(run);
        const auto text = output(std::string(run) + ".sql");
        const auto tests = parse_llama_bench_sql(text, "run.sql");
        REQUIRE(tests);
        REQUIRE(tests->size() == 2);
        const auto& pp = (*tests)[0];
        const auto& tg = (*tests)[1];
        CHECK(pp.is_prefill());
        CHECK(pp.n_prompt == 32);
        CHECK(tg.is_decode());
        CHECK(tg.n_gen == 8);
        CHECK(pp.line == line_starting(text, "INSERT INTO", 0));
        CHECK(tg.line == line_starting(text, "INSERT INTO", 1));
        for (const auto& t : *tests) {
            CHECK(t.build_commit == "de3ff81");
            CHECK(t.backends == "CPU");
            CHECK(t.model_type == "llama ?B Q8_0");
            CHECK(t.samples_ts.empty());  // -o sql prints no samples, like -o csv
            REQUIRE(t.avg_ts);
            CHECK(*t.avg_ts > 0);
            REQUIRE(t.avg_ns);
            CHECK(*t.avg_ns > 0);
        }
        // The same command's -o csv: a separate run, so only the description of the test is shared.
        const auto csv = parse_llama_bench_csv(output(std::string(run) + ".csv"), "run.csv");
        REQUIRE(csv);
        REQUIRE(csv->size() == tests->size());
        for (std::size_t i = 0; i < tests->size(); ++i) {
            const auto& s = (*tests)[i];
            const auto& c = (*csv)[i];
            CHECK(s.configuration == c.configuration);
            CHECK(s.model_filename == c.model_filename);
            CHECK(s.model_size == c.model_size);
            CHECK(s.model_n_params == c.model_n_params);
            CHECK(s.build_number == c.build_number);
            CHECK(s.cpu_info == c.cpu_info);
            CHECK(s.gpu_info == c.gpu_info);
            CHECK(s.n_batch == c.n_batch);
        }
    }
}

TEST_CASE("llama-bench -o sql and -o csv holding the same values read as the same records", "[llama-bench][sql]") {
    const auto sql_text = output("run-a.sql");
    const auto create_table = sql_text.substr(0, sql_text.find("INSERT INTO"));
    REQUIRE(create_table.find("CREATE TABLE") == 0);
    auto csv_text = output("run-a.csv");
    // A quote inside a value: '' in SQL, as is in CSV.
    for (auto at = csv_text.find("forged/"); at != std::string::npos; at = csv_text.find("forged/", at + 1))
        csv_text.replace(at, 7, "it's/");
    const auto csv = parse_llama_bench_csv(csv_text, "a.csv");
    const auto sql = parse_llama_bench_sql(csv_as_sql(csv_text, create_table), "a.sql");
    REQUIRE(csv);
    REQUIRE(sql);
    REQUIRE(sql->size() == csv->size());
    for (std::size_t i = 0; i < csv->size(); ++i) {
        const auto& s = (*sql)[i];
        const auto& c = (*csv)[i];
        CHECK(s.model_filename.rfind("it's/", 0) == 0);
        CHECK(s.model_filename == c.model_filename);
        CHECK(s.build_commit == c.build_commit);
        CHECK(s.test_time == c.test_time);
        CHECK(s.n_prompt == c.n_prompt);
        CHECK(s.n_gen == c.n_gen);
        CHECK(s.avg_ts == c.avg_ts);
        CHECK(s.avg_ns == c.avg_ns);
        CHECK(s.stddev_ts == c.stddev_ts);
        CHECK(s.configuration == c.configuration);
    }
}

TEST_CASE("llama-bench -o sql is told from the other result files by its start", "[llama-bench][sql]") {
    CHECK(starts_as_llama_bench_sql(output("run-a.sql")));
    CHECK(starts_as_llama_bench_sql("\n  insert into llama_bench (n_prompt) VALUES ('1');"));
    CHECK(starts_as_llama_bench_sql("INSERT\nINTO t"));
    CHECK_FALSE(starts_as_llama_bench_sql("CREATED TABLE"));
    CHECK_FALSE(starts_as_llama_bench_sql("INSERT"));
    CHECK_FALSE(starts_as_llama_bench_sql("INSERTINTO t"));
    CHECK_FALSE(starts_as_llama_bench_sql(output("run-a.csv")));
    CHECK_FALSE(starts_as_llama_bench_sql(output("run-a.jsonl")));

    const auto dir = test::temp_dir("sql-detect");
    for (const char* name : {"run-a.sql", "run-a.csv", "run-a.json", "run-a.jsonl"}) {
        std::ofstream(dir / name, std::ios::binary) << output(name);
        const auto format = detect_result_file_format((dir / name).string());
        REQUIRE(format);
        CHECK(std::string(to_string(*format)) == std::string("llama-bench -o ") + fs::path(name).extension().string().substr(1));
    }
    CHECK(*detect_result_file_format((dir / "run-a.sql").string()) == ResultFileFormat::llama_bench_sql);
}

TEST_CASE("llama-bench -o sql: input of another shape is an error naming the file and line", "[llama-bench][sql]") {
    const auto real = output("run-a.sql");
    const auto second = line_starting(real, "INSERT INTO", 1);
    REQUIRE(second > 1);
    const auto refused = [](const std::string& text, const std::string& message) {
        const auto tests = parse_llama_bench_sql(text, "bad.sql");
        REQUIRE_FALSE(tests);
        CHECK_THAT(tests.error().message, Catch::StartsWith(message));
    };
    const auto at = [](std::size_t line) { return "bad.sql:" + std::to_string(line) + ": llama-bench SQL: "; };
    // The last statement cut short: before its ";", inside its last value.
    refused(real.substr(0, real.rfind(");")), at(second) + "the statement ends before its ';'");
    refused(real.substr(0, real.rfind('\'')), at(second) + "unterminated quoted string");
    // The last statement one value short.
    auto short_row = real;
    short_row.erase(short_row.rfind(", '"), short_row.rfind(");") - short_row.rfind(", '"));
    refused(short_row, at(second) + "40 values for 41 columns");
    // Statements that are not llama-bench's.
    const auto end = line_starting(real + "x", "x");
    refused(real + "DROP TABLE llama_bench;\n", at(end) + "expected CREATE TABLE or INSERT INTO, found 'DROP'");
    refused(real + "SELECT n_gen FROM llama_bench;\n", at(end) + "expected CREATE TABLE or INSERT INTO, found 'SELECT'");
    refused(real + "INSERT INTO other (n_prompt) VALUES ('1');\n", at(end) + "table other, the file's statements are for llama_bench");
    refused(real + "INSERT INTO llama_bench (n_gen, n_gen) VALUES ('1', '2');\n", at(end) + "column n_gen named twice");
    refused(real + "INSERT INTO llama_bench (n_gen) VALUES (NULL);\n", at(end) + "expected a quoted string or a number, found 'NULL'");
    refused(real + "INSERT INTO llama_bench (n_gen) VALUES ('1'), ('2');\n", at(end) + "expected ';', found ','");
    refused(real + "-- a comment\n", at(end) + "'--' is not a number");
    refused(real + "INSERT INTO llama_bench (n_gen) VALUES (\"1\");\n", at(end) + "unexpected '\"'");
    // An invalid UTF-8 byte in a value (found by fuzz_llama_bench_sql: it crashed the record reader).
    auto bad_byte = real;
    bad_byte.insert(bad_byte.rfind("'0'"), "\xff");
    refused(bad_byte, at(second) + "invalid UTF-8 byte 0xff: not text");
    auto csv = output("run-a.csv");
    csv.insert(csv.rfind("\"0\""), "\xff");
    const auto csv_tests = parse_llama_bench_csv(csv, "bad.csv");
    REQUIRE_FALSE(csv_tests);
    CHECK_THAT(csv_tests.error().message, Catch::StartsWith("bad.csv:3: llama-bench CSV: invalid UTF-8 byte 0xff: not text"));
    refused("", at(1) + "no INSERT of a test");
    refused(real.substr(0, real.find("INSERT INTO")), at(1) + "no INSERT of a test");
}
